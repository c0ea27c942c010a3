/**
 * Every key of a database with its type and value, to prove an operation changed nothing
 * (or exactly what it should). Binary values are compared as hex.
 */
import type { Redis } from 'ioredis';

export async function snapshot(redis: Redis): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const keys = (await redis.keys('*')).sort();
  for (const key of keys) {
    const type = await redis.type(key);
    if (type === 'string') out[key] = (await redis.getBuffer(key))?.toString('hex');
    else if (type === 'list') out[key] = (await redis.lrangeBuffer(key, 0, -1)).map((b) => b.toString('hex'));
    else if (type === 'set') out[key] = (await redis.smembers(key)).sort();
    else if (type === 'zset') out[key] = await redis.zrange(key, 0, -1, 'WITHSCORES');
    else if (type === 'hash') {
      const h = await redis.hgetallBuffer(key);
      out[key] = Object.fromEntries(Object.entries(h).sort().map(([f, v]) => [f, v.toString('hex')]));
    }
  }
  return out;
}
