/**
 * Deletes tasks given only their IDs, whatever state each is in (the "keep one, delete the
 * rest" action of the duplicates view), in the bulk layer's batches of 500.
 */
import type { RedisClient } from '../redis-client';
import { failedPrecondition, taskNotFound, type AsynqError } from '../errors';
import * as k from '../keys';
import { bulkByIds } from '../mutations/bulk';
import { assertQueueExists } from '../inspector/queues';
import { isTaskState } from '../states';
import { execPipeline } from '../scripts';

export interface DeleteTasksResult {
  deleted: number;
  failed: { id: string; error: AsynqError }[];
}

const LOOKUP_BATCH = 1000;

/**
 * Deletes every task of `ids` that is not active, releasing the unique locks they own (as the
 * bulk delete does). IDs repeated in the list count once. Throws queue_not_found.
 * Round trips: SISMEMBER, one HGET-state pipeline per 1,000 IDs, then per state found the
 * bulk layer's queue check plus one script call per 500 IDs. A task that changes state between
 * the lookup and its batch is reported in `failed`, never deleted from the wrong place.
 */
export async function deleteTasksById(redis: RedisClient, qname: string, ids: readonly string[]): Promise<DeleteTasksResult> {
  await assertQueueExists(redis, 'deleteTasks', qname);
  const unique = [...new Set(ids)];
  const byState = new Map<string, string[]>();
  const out: DeleteTasksResult = { deleted: 0, failed: [] };
  for (let i = 0; i < unique.length; i += LOOKUP_BATCH) {
    const chunk = unique.slice(i, i + LOOKUP_BATCH);
    const replies = await execPipeline(redis, (p) => {
      for (const id of chunk) p.hget(k.taskKey(qname, id), 'state');
    });
    chunk.forEach((id, j) => {
      const [err, state] = replies[j] ?? [null, null];
      if (err) throw err;
      if (typeof state !== 'string') out.failed.push({ id, error: taskNotFound('deleteTasks', qname, id) });
      else if (state === 'active') out.failed.push({ id, error: failedPrecondition('deleteTasks', 'cannot delete task in active state. use CancelProcessing instead.', { id, state }) });
      else if (!isTaskState(state)) out.failed.push({ id, error: failedPrecondition('deleteTasks', `task has unknown state ${JSON.stringify(state)}`, { id, state }) });
      else {
        const list = byState.get(state);
        if (list) list.push(id);
        else byState.set(state, [id]);
      }
    });
  }
  for (const [state, group] of byState) {
    const r = await bulkByIds(redis, qname, 'delete', state, group);
    out.deleted += r.succeeded;
    out.failed.push(...r.failed);
  }
  return out;
}
