import 'server-only';
import type { z } from 'zod';
import { batchEnqueue, cancelTask, deleteQueue, enqueueTask, moveTask, pauseQueue, precheckEnqueue, resumeQueue, updateTaskPayload } from '@/lib/asynq';
import type { BatchEnqueueBody, EnqueueBody, EnqueueCheckDto, enqueueCheckBodySchema } from '@/lib/contract/mutations';
import type { PostAction } from '@/lib/contract/task-actions';
import type { QueueStatsDto } from '@/lib/contract/queues';
import type { TaskDto } from '@/lib/contract/tasks';
import { DETAIL_PAYLOAD_LIMIT, toTaskDto } from '../dto/tasks';
import { decodePayload } from '../dto/payload';
import { getInspector, getRedis } from '../redis/client';
import { getQueue } from './queues';

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
  const info = await enqueueTask(getRedis(), { type: body.type, payload }, toOptions(body.options, qname), new Date());
  return toTaskDto(info, DETAIL_PAYLOAD_LIMIT);
}

/** Enqueues many tasks in one round trip with a result per item. */
export async function enqueueBatch(body: BatchEnqueueBody) {
  const items = body.items.map((it, i) => ({
    task: { type: it.type, payload: decodePayload(`items.${i}.payload`, it.payload, it.payloadEncoding) },
    options: toOptions(it.options, it.queue ?? 'default'),
  }));
  const results = await batchEnqueue(getRedis(), items, new Date());
  return {
    results: results.map((r) =>
      r.ok ? r : { ok: false as const, error: { code: r.error.kind, message: r.error.message, ...r.error.details } },
    ),
  };
}

export async function runTaskAction(qname: string, id: string, action: PostAction) {
  if (action === 'cancel') {
    await cancelTask(getRedis(), qname, id);
    return Response.json({}, { status: 202 });
  }
  await moveTask(getRedis(), qname, id, action, new Date());
  return toTaskDto(await getInspector().task(qname, id), DETAIL_PAYLOAD_LIMIT);
}

export async function deleteTask(qname: string, id: string): Promise<undefined> {
  await moveTask(getRedis(), qname, id, 'delete', new Date());
  return undefined;
}

export async function updatePayload(qname: string, id: string, payload: string, encoding: 'utf8' | 'base64'): Promise<TaskDto> {
  await updateTaskPayload(getRedis(), qname, id, decodePayload('payload', payload, encoding) ?? new Uint8Array());
  return toTaskDto(await getInspector().task(qname, id), DETAIL_PAYLOAD_LIMIT);
}

export async function setPaused(qname: string, paused: boolean): Promise<QueueStatsDto> {
  if (paused) await pauseQueue(getRedis(), qname, new Date());
  else await resumeQueue(getRedis(), qname);
  return getQueue(qname);
}

export async function removeQueue(qname: string, force: boolean): Promise<undefined> {
  await deleteQueue(getRedis(), qname, force);
  return undefined;
}

/** The lock and task-ID situation an enqueue would meet; a read, allowed read-only. */
export async function checkEnqueue(qname: string, body: z.infer<typeof enqueueCheckBodySchema>): Promise<EnqueueCheckDto> {
  const payload = decodePayload('payload', body.payload, body.payloadEncoding);
  return precheckEnqueue(getRedis(), { queue: qname, type: body.type, payload, unique: body.unique, taskId: body.taskId });
}
