/**
 * The rest of an archive's trim. asynq trims the whole archive in the script that archives
 * (one unbounded ZREMRANGEBYSCORE and ZREMRANGEBYRANK); ours trim at most a few hundred
 * members there and report how many are still due (700 tasks past 90 days, or an archive
 * already far past 9 999, cost more than one short call). This removes them in calls of
 * their own, each sized by the Redis time the last one reported (call-sizer.ts) and each
 * atomic, so the action ends with the archive asynq would leave, and no call nears 5 ms.
 */
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import { asArray, asNumber } from '../reply';
import { runScript } from '../scripts';
import { createCallSizer } from '../call-sizer';
import { archiveCutoff, MAX_ARCHIVE_SIZE } from './archive-limits';

/** Members per call: about 1 µs each (a ZSET member and its hash), so 1 000 is about 1 ms. */
const FIRST = 200;
const MIN = 20;
/** Within what Lua's unpack takes in one DEL. */
const MAX = 1000;

/**
 * Trims `qname`'s archive until nothing is due (older than 90 days at `now` in `timeZone`, or past the
 * newest 9 999). Returns the number of tasks removed. One round trip per call of at most
 * 1 000 members; none when nothing is due but the first call's answer.
 */
export async function trimArchive(redis: RedisClient, qname: string, now: Date, timeZone?: string): Promise<number> {
  const sizer = createCallSizer({ first: FIRST, min: MIN, max: MAX });
  const args = [k.taskKeyPrefix(qname), archiveCutoff(now, timeZone), MAX_ARCHIVE_SIZE] as const;
  let removed = 0;
  for (;;) {
    const reply = asArray(await runScript(redis, 'trimArchive', [k.archivedKey(qname)], [...args, sizer.size]), 'trimArchive');
    const [n, left, us] = reply.map((v) => asNumber(v) ?? 0) as [number, number, number];
    removed += n;
    sizer.observe(n, us);
    if (left <= 0 || n <= 0) return removed;
  }
}
