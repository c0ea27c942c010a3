/**
 * Task messages for seeding, with asynq's client defaults (MaxRetry 25, 30 min timeout).
 */
import { randomUUID } from 'node:crypto';
import type { TaskMessage } from '../index';

export function newTaskMessage(over: Partial<TaskMessage> & { type: string; queue?: string }): TaskMessage {
  return {
    payload: new Uint8Array(),
    id: randomUUID(),
    queue: 'default',
    retry: 25,
    retried: 0,
    errorMsg: '',
    timeout: 1800,
    deadline: 0,
    uniqueKey: '',
    lastFailedAt: 0,
    retention: 0,
    completedAt: 0,
    groupKey: '',
    headers: {},
    ...over,
  };
}

export const json = (v: unknown): Uint8Array => Buffer.from(JSON.stringify(v));
