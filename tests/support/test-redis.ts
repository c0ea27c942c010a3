/**
 * Connections to the run's private Redis. Each test file passes its own database number
 * (unique across files: tests/unit/test-databases.test.ts checks it) and gets that database flushed, so files
 * run in parallel without seeing each other's keys.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeEach, inject } from 'vitest';

export function testRedisUrl(db: number): string {
  return `redis://127.0.0.1:${inject('redisPort')}/${db}`;
}

/** A binary-safe client on database `db`, flushed. */
export async function openTestRedis(db: number): Promise<Redis> {
  const redis = new Redis(testRedisUrl(db), { maxRetriesPerRequest: 1 });
  await redis.flushdb();
  return redis;
}

/**
 * A test file's usual set-up in one line at its top (`const redis = await useTestRedis(DB)`):
 * a client on `db` for the whole file, quit after it, and the database flushed before each test.
 */
export async function useTestRedis(db: number, { flushEach = true }: { flushEach?: boolean } = {}): Promise<Redis> {
  const redis = await openTestRedis(db);
  afterAll(() => redis.quit());
  if (flushEach) beforeEach(() => redis.flushdb());
  return redis;
}

/** `useTestRedis` for a file whose routes run read-only (ASYNQLENS_READ_ONLY=1) on `db`. */
export async function useReadOnlyRoutes(db: number): Promise<Redis> {
  process.env.REDIS_URL = testRedisUrl(db);
  process.env.ASYNQLENS_READ_ONLY = '1';
  afterAll(() => {
    delete process.env.ASYNQLENS_READ_ONLY;
  });
  return useTestRedis(db, { flushEach: false });
}
