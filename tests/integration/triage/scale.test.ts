/**
 * Triage over a large queue (100,000 pending and asynq's full archive of 9,999 not-found
 * tasks): the answer is exact, it arrives as progress (`complete: false`) when the client does
 * not wait, and no Redis call the scan makes takes more than 5 ms in Redis's own SLOWLOG.
 *
 * SLOWLOG is server-wide: our route's connection gets a client name and only its entries are
 * read; the log settings are restored afterwards. SLOWLOG measures wall time, so a machine that
 * preempts redis-server mid-call can inflate one call: the test may run again (retry 4). An
 * unbounded read (one LRANGE or Lua call over the 100,000) is over the limit on every attempt.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { getRedis } from '@/lib/server/redis/client';
import { forgetTriageScans } from '@/lib/server/jobs/triage-scans';
import { consoleRoutes } from '../../support/console-routes';
import { get, notFoundError, openTriageRedis, untilComplete } from './helpers';

const DB = 74;
const routes = await consoleRoutes();
const Q = 'triage-scale';
const PENDING = 100_000;
const ARCHIVED = 9_999;
const LIMIT_US = 5_000;
const CLIENT_NAME = `asynqlens-triage-scale-${process.pid}`;
type SlowEntry = [number, number, number, Buffer[], Buffer, Buffer];

let redis: Redis;
let saved: { threshold: string; maxLen: string } | undefined;

async function seed() {
  const payload = Buffer.alloc(150, 'p');
  await redis.sadd(k.ALL_QUEUES, Q);
  for (let start = 0; start < PENDING; start += 5000) {
    const p = redis.pipeline();
    for (let i = start; i < start + 5000; i++) {
      const m = newTaskMessage({ type: i % 10 === 0 ? 'report:new' : 'email:send', queue: Q, payload });
      p.hset(k.taskKey(Q, m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', 'pending');
      p.lpush(k.pendingKey(Q), m.id);
    }
    await p.exec();
  }
  const p = redis.pipeline();
  const t0 = 1_780_000_000;
  for (let i = 0; i < ARCHIVED; i++) {
    const m = newTaskMessage({ type: 'report:new', queue: Q, payload, errorMsg: notFoundError('report:new'), retried: 25, lastFailedAt: t0 + i });
    p.hset(k.taskKey(Q, m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', 'archived');
    p.zadd(k.archivedKey(Q), t0 + i, m.id);
  }
  await p.exec();
}

beforeAll(async () => {
  ({ redis } = await openTriageRedis(DB));
  await getRedis().client('SETNAME', CLIENT_NAME);
  const [, threshold] = (await redis.config('GET', 'slowlog-log-slower-than')) as string[];
  const [, maxLen] = (await redis.config('GET', 'slowlog-max-len')) as string[];
  saved = { threshold: threshold!, maxLen: maxLen! };
  await redis.config('SET', 'slowlog-max-len', '200000');
  await redis.config('SET', 'slowlog-log-slower-than', '0');
  await seed();
}, 120_000);

afterAll(async () => {
  forgetTriageScans();
  if (saved) {
    await redis.config('SET', 'slowlog-log-slower-than', saved.threshold);
    await redis.config('SET', 'slowlog-max-len', saved.maxLen);
  }
  getRedis().disconnect();
  await redis.quit();
});

describe('triage over 110,000 tasks', () => {
  it('answers progress first, then the exact group, with every Redis call under 5 ms', { retry: 4 }, async () => {
    forgetTriageScans();
    await redis.slowlog('RESET');
    const started = performance.now();
    const first = await get(routes.notFound.GET, '/api/handler-not-found?wait=0');
    expect(first.body).toMatchObject({ complete: false, total: PENDING + ARCHIVED });
    const done = await untilComplete(routes.notFound.GET, '/api/handler-not-found?wait=1000');
    const ms = performance.now() - started;
    expect(done.body).toMatchObject({ complete: true, scanned: PENDING + ARCHIVED, skipped: 0 });
    expect(done.body.groups).toHaveLength(1);
    expect(done.body.groups[0]).toMatchObject({
      queue: Q, taskType: 'report:new', archived: ARCHIVED, retry: 0, pending: PENDING / 10, scheduled: 0,
      retriesSpent: 25 * ARCHIVED, firstFailedAt: '2026-05-28T20:26:40Z', lastFailedAt: new Date((1_780_000_000 + ARCHIVED - 1) * 1000).toISOString().replace('.000', ''),
    });
    const entries = (await redis.call('SLOWLOG', 'GET', '-1')) as SlowEntry[];
    const ours = entries.filter((e) => String(e[5]) === CLIENT_NAME);
    const reads = ours.filter((e) => /^(sort_ro|lrange|zrange)$/i.test(String(e[3][0])));
    const longest = Math.max(0, ...ours.map((e) => e[2]));
    console.info(`[triage-scale] ${PENDING + ARCHIVED} tasks in ${ms.toFixed(0)} ms, ${reads.length} slice reads, longest call ${longest} µs`);
    expect(reads.length, 'slice reads (≤ 500 tasks each)').toBeGreaterThanOrEqual((PENDING + ARCHIVED) / 500);
    expect(longest, `longest Redis call of the scan (µs), limit ${LIMIT_US}`).toBeLessThan(LIMIT_US);
  });
});
