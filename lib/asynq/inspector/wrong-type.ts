/**
 * Malformed data met by a read of one queue: a key of another type than asynq writes makes
 * Redis answer WRONGTYPE, which is a fact about that queue's data, not a fault of the console.
 * It becomes a failed_precondition naming the key, the type asynq writes and the type found,
 * so the request answers 409 with the reason instead of 500. Reads only: nothing is repaired.
 */
import { AsynqError, failedPrecondition, goQuote } from '../errors';
import type { RedisClient } from '../redis-client';

export function isWrongType(err: unknown): boolean {
  return err instanceof Error && !(err instanceof AsynqError) && err.message.startsWith('WRONGTYPE');
}

/**
 * The error for a WRONGTYPE met reading `candidates` (key → the type asynq writes there): the
 * first whose TYPE differs is named. One round trip (TYPE of each candidate, pipelined), paid
 * only once the read has already failed. Any other error is returned unchanged.
 */
export async function explainWrongType(
  redis: RedisClient,
  op: string,
  qname: string,
  err: unknown,
  candidates: readonly (readonly [key: string, expected: string])[],
): Promise<unknown> {
  if (!isWrongType(err)) return err;
  const p = redis.pipeline();
  for (const [key] of candidates) p.type(key);
  const types = ((await p.exec()) ?? []).map(([, t]) => String(t));
  const i = candidates.findIndex(([, expected], j) => types[j] !== expected && types[j] !== 'none');
  const [key, expected] = i >= 0 ? candidates[i]! : [candidates[0]?.[0] ?? '', 'another type'];
  const found = i >= 0 ? types[i]! : 'a key of the wrong type inside it';
  return failedPrecondition(op, `queue ${goQuote(qname)} is unreadable: ${key} holds a ${found} where asynq writes a ${expected}`, {
    queue: qname, key, expected, found,
  });
}
