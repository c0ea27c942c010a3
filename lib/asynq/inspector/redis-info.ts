/**
 * Redis INFO, parsed into sections.
 */
import type { Redis } from 'ioredis';

export type RedisInfo = Record<string, Record<string, string>>;

/** Parses the text of INFO into `{ section: { field: value } }` (section names lower-case). */
export function parseRedisInfo(text: string): RedisInfo {
  const info: RedisInfo = {};
  let section = 'default';
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('# ')) {
      section = line.slice(2).trim().toLowerCase();
      info[section] ??= {};
    } else if (line.includes(':')) {
      const i = line.indexOf(':');
      (info[section] ??= {})[line.slice(0, i)] = line.slice(i + 1);
    }
  }
  return info;
}

/** INFO of the server. One round trip. */
export async function getRedisInfo(redis: Redis): Promise<RedisInfo> {
  return parseRedisInfo(await redis.info());
}
