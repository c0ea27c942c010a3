import 'server-only';
import type { z } from 'zod';
import type { BatchEnqueueBody, EnqueueBody, EnqueueReplacingArchivedBody, EnqueueCheckDto, enqueueCheckBodySchema } from '@/lib/contract/mutations';
import type { PostAction } from '@/lib/contract/task-actions';
import type { QueueStatsDto } from '@/lib/contract/queues';
import type { TaskDto } from '@/lib/contract/tasks';
import { DETAIL_PAYLOAD_LIMIT, toTaskDto } from '../dto/tasks';
import { decodePayload } from '../dto/payload';
import { getInspector } from '../redis/client';
import { getQueue } from './queues';
import { getRoutingVerdicts } from './routing-verdicts';

function toOptions(o: EnqueueBody['options'], queue: string) {
  return {
    ...o,
    queue,
    deadline: o.deadline ? new Date(o.deadline) : undefined,
    processAt: o.processAt ? new Date(o.processAt) : undefined,
  };
}

/** Enqueues one task with every asynq option; 409 duplicate_task / task_id_conflict. */
export async function enqueue(qname: string, body: EnqueueBody): Promise<TaskDto> {
  const payload = decodePayload('payload', body.payload, body.payloadEncoding);
  const info = await getInspector().enqueue({ type: body.type, payload }, toOptions(body.options, qname));
  return toTaskDto(info, DETAIL_PAYLOAD_LIMIT);
}

/**
 * Deletes the archived task that holds the new task's ID or unique lock and enqueues, in one
 * step; 404 when it is gone, 409 when it changed state or no longer stands in the way.
 */
export async function enqueueReplacingArchived(qname: string, body: EnqueueReplacingArchivedBody): Promise<TaskDto> {
  const payload = decodePayload('payload', body.payload, body.payloadEncoding);
  const info = await getInspector().enqueueReplacingArchived(body.archivedId, { type: body.type, payload }, toOptions(body.options, qname));
  return toTaskDto(info, DETAIL_PAYLOAD_LIMIT);
}

/** Enqueues many tasks in one round trip with a result per item. */
export async function enqueueBatch(body: BatchEnqueueBody) {
  const items = body.items.map((it, i) => ({
    task: { type: it.type, payload: decodePayload(`items.${i}.payload`, it.payload, it.payloadEncoding) },
    options: toOptions(it.options, it.queue ?? 'default'),
  }));
  const results = await getInspector().enqueueBatch(items);
  return {
    results: results.map((r) =>
      r.ok ? r : { ok: false as const, error: { code: r.error.kind, message: r.error.message, ...r.error.details } },
    ),
  };
}

/**
 * Runs or archives a task and answers it as it now is; null for cancel, which only asks the
 * worker that holds the task to stop (it answers nothing yet: 202).
 */
export async function runTaskAction(qname: string, id: string, action: PostAction): Promise<TaskDto | null> {
  if (action === 'cancel') {
    await getInspector().cancelTask(qname, id);
    return null;
  }
  await getInspector().moveTask(qname, id, action);
  return toTaskDto(await getInspector().task(qname, id), DETAIL_PAYLOAD_LIMIT);
}

export async function deleteTask(qname: string, id: string): Promise<undefined> {
  await getInspector().moveTask(qname, id, 'delete');
  return undefined;
}

export async function updatePayload(qname: string, id: string, payload: string, encoding: 'utf8' | 'base64'): Promise<TaskDto> {
  await getInspector().updateTaskPayload(qname, id, decodePayload('payload', payload, encoding) ?? new Uint8Array());
  return toTaskDto(await getInspector().task(qname, id), DETAIL_PAYLOAD_LIMIT);
}

/** Moves a scheduled or retry task to `processAt` and answers it as it now is. */
export async function rescheduleTask(qname: string, id: string, processAt: string): Promise<TaskDto> {
  await getInspector().rescheduleTask(qname, id, new Date(processAt));
  return toTaskDto(await getInspector().task(qname, id), DETAIL_PAYLOAD_LIMIT);
}

export async function setPaused(qname: string, paused: boolean): Promise<QueueStatsDto> {
  if (paused) await getInspector().pauseQueue(qname);
  else await getInspector().resumeQueue(qname);
  return getQueue(qname);
}

export async function removeQueue(qname: string, force: boolean): Promise<undefined> {
  await getInspector().deleteQueue(qname, force);
  return undefined;
}

/**
 * The lock and task-ID situation an enqueue would meet, and the routing verdict of its type on
 * the queue (from the kept evidence, never waiting for a scan); a read, allowed read-only.
 */
export async function checkEnqueue(qname: string, body: z.infer<typeof enqueueCheckBodySchema>): Promise<EnqueueCheckDto> {
  const payload = decodePayload('payload', body.payload, body.payloadEncoding);
  const [check, routing] = await Promise.all([
    getInspector().precheckEnqueue({ queue: qname, type: body.type, payload, unique: body.unique, taskId: body.taskId }),
    body.type.trim() === '' ? null : getRoutingVerdicts({ queue: qname, type: body.type, wait: 0 }),
  ]);
  return { ...check, routing: routing?.verdicts[0] ?? null };
}
