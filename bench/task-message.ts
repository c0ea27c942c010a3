/**
 * The TaskMessages the benchmarks seed, split the way seed-tasks.lua reassembles them: the
 * parts that are the same for every task of a batch are encoded here once, with our codec, and
 * Lua only adds each task's ID (field 3) in between. verifySeeded proves on a sample that the
 * result is byte for byte what encodeTaskMessage writes for the whole message.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Redis } from 'ioredis';
import { decodeTaskMessage, encodeTaskMessage } from '../lib/asynq/codec';
import * as k from '../lib/asynq/keys';
import type { TaskMessage } from '../lib/asynq/types';

export type SeedState = 'pending' | 'scheduled' | 'retry' | 'archived';

/** Tasks 1..count of one queue and state; IDs are `idFormat` with the index as `%012d`. */
export interface TaskBatch {
  queue: string;
  state: SeedState;
  count: number;
  idFormat: string;
}

/** 131 bytes, so a pending msg is about 200 B, the size the performance note's D-deep uses. */
const PAYLOAD = new Uint8Array(Buffer.from(JSON.stringify({
  to: 'user-000042@example.com', subject: 'Your weekly digest is here', template: 'weekly-digest', vars: { plan: 'pro', seats: 12 },
})));
const FAILED_AT = 1_700_000_000;

export function taskId(batch: TaskBatch, index: number): string {
  return batch.idFormat.replace('%012d', String(index).padStart(12, '0'));
}

/** The message task `index` of `batch` must hold once seeded. */
export function expectedMessage(batch: TaskBatch, index: number): TaskMessage {
  const failed = batch.state === 'retry' || batch.state === 'archived';
  return {
    type: 'bench:email', payload: PAYLOAD, id: taskId(batch, index), queue: batch.queue,
    retry: 25, retried: failed ? 3 : 0, errorMsg: failed ? 'smtp: 451 temporary failure' : '',
    timeout: 1800, deadline: 0, uniqueKey: '', lastFailedAt: failed ? FAILED_AT : 0,
    retention: 0, completedAt: 0, groupKey: '', headers: {},
  };
}

/** Fields 1-2 and fields 4+ of the batch's messages (the ID, field 3, goes in between). */
export function messageParts(batch: TaskBatch): { prefix: Buffer; suffix: Buffer } {
  const m = expectedMessage(batch, 0);
  const none = { type: '', payload: new Uint8Array(), id: '' };
  const blank: TaskMessage = { ...m, ...none, queue: '', retry: 0, retried: 0, errorMsg: '', timeout: 0, lastFailedAt: 0 };
  return {
    prefix: Buffer.from(encodeTaskMessage({ ...blank, type: m.type, payload: m.payload })),
    suffix: Buffer.from(encodeTaskMessage({ ...m, ...none })),
  };
}

/**
 * Throws unless task `index` of `batch` is in Redis with exactly the bytes encodeTaskMessage
 * writes, decodes back to the expected message, and has the right hash state.
 * One round trip (HMGET).
 */
export async function verifySeeded(redis: Redis, batch: TaskBatch, index: number): Promise<void> {
  const want = expectedMessage(batch, index);
  const [msg, state] = await redis.hmgetBuffer(k.taskKey(batch.queue, want.id), 'msg', 'state');
  const where = `seeded task ${want.id} (${batch.queue}, ${batch.state})`;
  if (!msg) throw new Error(`${where}: no msg in Redis`);
  if (!msg.equals(Buffer.from(encodeTaskMessage(want)))) {
    throw new Error(`${where}: msg bytes differ from encodeTaskMessage:\n  got  ${msg.toString('hex')}`);
  }
  const got = decodeTaskMessage(msg);
  const hex = (m: TaskMessage) => ({ ...m, payload: Buffer.from(m.payload).toString('hex') });
  if (!isDeepStrictEqual(hex(got), hex(want))) throw new Error(`${where}: decodes to ${JSON.stringify(hex(got))}`);
  if (state?.toString() !== batch.state) throw new Error(`${where}: hash state is ${String(state)}`);
}
