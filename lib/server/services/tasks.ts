import 'server-only';
import type { TaskDto, TaskListDto, TaskListQuery } from '@/lib/contract/tasks';
import { DETAIL_PAYLOAD_LIMIT, LIST_PAYLOAD_LIMIT, toTaskDto } from '../dto/tasks';
import { getInspector } from '../redis/client';
import { shared } from '../cache/snapshot';

/** One page of a state's tasks, in asynq's order. One Redis round trip. */
export function listTasks(qname: string, q: TaskListQuery): Promise<TaskListDto> {
  return shared(`tasks:${JSON.stringify([qname, q.state, q.page, q.size, q.group ?? null])}`, () => readTasks(qname, q));
}

async function readTasks(qname: string, q: TaskListQuery): Promise<TaskListDto> {
  const page = await getInspector().tasks(qname, q.state, { page: q.page, size: q.size, group: q.group });
  return {
    tasks: page.tasks.map((t) => toTaskDto(t, LIST_PAYLOAD_LIMIT)),
    page: q.page,
    size: q.size,
    total: page.total,
  };
}

export async function getTask(qname: string, id: string): Promise<TaskDto> {
  return toTaskDto(await getInspector().task(qname, id), DETAIL_PAYLOAD_LIMIT);
}

/** The raw payload bytes, for download and for payloads past the detail view's limit. */
export function getTaskPayload(qname: string, id: string): Promise<Uint8Array> {
  return getInspector().taskPayload(qname, id);
}
