/**
 * Releases (deletes) one unique lock on an operator's explicit request, refusing while its
 * holder may still run and never deleting a lock that changed owner after it was judged.
 */
import { assertQueueSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import { AsynqError, invalidArgument } from '../errors';
import * as k from '../keys';
import { asArray, asNumber, asText } from '../reply';
import { runScript } from '../scripts';
import { lockOwners, notThisQueuesLock } from './locks';

export type ReleaseOutcome =
  | { released: true; holderId: string; holderState: string | null }
  | { released: false; reason: 'not_found' }
  /** The lock is held by `holderId` now, not by the task the caller named. */
  | { released: false; reason: 'owner_changed'; holderId: string }
  /** The holder is pending, scheduled, retry, active or aggregating: the lock still guards it. */
  | { released: false; reason: 'holder_live'; holderId: string; holderState: string };

/**
 * Deletes lock `key` of queue `qname` if its holder is gone, completed or archived (or in no
 * known state). With `expectedHolder`, only while that task still holds it: pass the holder
 * the operator saw, so a lock re-acquired by a new task in between survives.
 * Throws invalid_argument when `key` is not one of the queue's lock keys, including a key under
 * its prefix that belongs to a longer queue name (`nest}:unique:zz` under `nest`): that lock
 * guards another queue's task, which `qname`'s task hashes cannot see.
 * Round trips: one (the script) with `expectedHolder`, else two (GET, then the script, which
 * checks the owner again so the GET's answer cannot go stale).
 */
export async function releaseLock(redis: RedisClient, qname: string, key: string, expectedHolder?: string): Promise<ReleaseOutcome> {
  assertQueueSlot(redis, 'releaseLock', qname);
  const prefix = k.uniqueKeyPrefix(qname);
  if (!key.startsWith(prefix) || key.length === prefix.length) {
    throw invalidArgument('releaseLock', 'key', `key must be a lock of queue ${JSON.stringify(qname)}: it must start with ${JSON.stringify(prefix)}`);
  }
  const [owner] = await lockOwners(redis, qname, [key]);
  if (owner !== qname) throw notThisQueuesLock('releaseLock', qname, key, owner ?? null);
  const holder = expectedHolder ?? (await redis.get(key));
  if (holder === null) return { released: false, reason: 'not_found' };
  const reply = asArray(await runScript(redis, 'releaseLock', [key, k.taskKey(qname, holder)], [holder]), 'releaseLock');
  const code = asNumber(reply[0]);
  const current = asText(reply[1]) ?? '';
  const state = asText(reply[2]);
  switch (code) {
    case 1:
      return { released: true, holderId: current, holderState: state };
    case 0:
      return { released: false, reason: 'not_found' };
    case -1:
      return { released: false, reason: 'owner_changed', holderId: current };
    case -2:
      return { released: false, reason: 'holder_live', holderId: current, holderState: state ?? '' };
    default:
      throw new AsynqError('INTERNAL', 'internal', `releaseLock script returned unknown code ${String(code)}`, 'releaseLock');
  }
}
