/**
 * Aggregation groups of a queue.
 */
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import { asArray, asNumber, asText } from '../reply';
import { runScript } from '../scripts';
import { explainWrongType, isWrongType } from './wrong-type';

export interface GroupStat {
  group: string;
  size: number;
}

/**
 * Every group of a queue with its size, in set order (asynq's order, which is unordered).
 * One round trip; asynq's inspector needs 1 + one per group.
 */
export async function listGroups(redis: RedisClient, qname: string): Promise<GroupStat[]> {
  let reply: unknown;
  try {
    reply = await runScript(redis, 'listGroups', [k.allGroups(qname)], [k.groupKeyPrefix(qname)]);
  } catch (err) {
    if (!isWrongType(err)) throw err;
    // Only on failure: which key it was, the registry or one group (two more round trips).
    const registry = k.allGroups(qname);
    const groups = (await redis.type(registry)) === 'set' ? await redis.smembers(registry) : [];
    throw await explainWrongType(redis, 'listGroups', qname, err, [[registry, 'set'], ...groups.map((g) => [k.groupKey(qname, g), 'zset'] as const)]);
  }
  const flat = asArray(reply, 'listGroups');
  const out: GroupStat[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    out.push({ group: asText(flat[i]) ?? '', size: asNumber(flat[i + 1]) ?? 0 });
  }
  return out;
}
