/**
 * Redis stalls while a streamed (NDJSON) answer is under way: a search action and a re-run have
 * sent progress lines, then DEBUG SLEEP holds Redis past the command timeout. The status (200)
 * went out with the first byte, so the failure can only be said in the last line: it must be
 * the API's own `redis_unavailable` (stalled, outcome unknown for a change), as a plain answer
 * would say, never `internal`. Then the stall mark clears and the console answers again.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { isRedisStalled } from '@/lib/server/redis/stall';
import type { Handler } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { get, report, waitFor, useStallableRedis } from './helpers';
import { ndjsonLines } from '@/lib/query/fetcher';

const TIMEOUT_MS = 1000;
const SLEEP_S = 2;
const stallable = useStallableRedis('stream-stall', TIMEOUT_MS);

/** `n` tasks of `type` in queue `q`, as asynq leaves them: pending, or archived after "handler not found". */
async function seed(state: 'pending' | 'archived', type: string, n: number): Promise<void> {
  for (let from = 0; from < n; from += 5000) {
    const p = stallable.admin.pipeline().sadd(k.ALL_QUEUES, 'q');
    for (let i = from; i < Math.min(n, from + 5000); i++) {
      const errorMsg = `handler not found for task "${type}"`;
      const m = newTaskMessage({ type, queue: 'q', id: `${type}-${i}`, ...(state === 'archived' ? { errorMsg, retried: 25, lastFailedAt: 1 } : {}) });
      p.hset(k.taskKey('q', m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', state, ...(state === 'pending' ? ['pending_since', '1'] : []));
      if (state === 'pending') p.lpush(k.pendingKey('q'), m.id);
      else p.zadd(k.archivedKey('q'), 1, m.id);
    }
    await p.exec();
  }
}

/**
 * POSTs `body` asking for NDJSON and reads the answer line by line; at the first progress line
 * Redis is put to sleep (on a connection of its own) while the work goes on. Returns the status,
 * the content type and every line, once the stream has ended and Redis has woken.
 */
async function stallMidStream(handler: Handler, path: string, body: unknown) {
  const req = new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
    body: JSON.stringify(body),
  });
  const res = await handler(req, { params: Promise.resolve({}) });
  const sleeper = new Redis(stallable.server.url);
  await sleeper.ping();
  let sleeping: Promise<unknown> | undefined;
  const lines: Record<string, unknown>[] = [];
  for await (const value of ndjsonLines(res.body!)) {
    const line = value as Record<string, unknown>;
    lines.push(line);
    if ('progress' in line && !sleeping) sleeping = sleeper.call('DEBUG', 'SLEEP', String(SLEEP_S));
  }
  await sleeping;
  sleeper.disconnect();
  return { status: res.status, contentType: res.headers.get('content-type'), lines };
}

/** The stall mark set by the failed stream clears by itself, and a plain read succeeds again. */
async function expectRecovered(r: Awaited<ReturnType<typeof consoleRoutes>>) {
  const ms = await waitFor('the probe to clear the stall mark', () => !isRedisStalled(), 3 * TIMEOUT_MS, 5);
  report('stall mark cleared after the stream failed', ms);
  expect((await get(r.queues.GET)).status).toBe(200);
}

describe('a Redis stall in the middle of a streamed answer', () => {
  it('a search action ends with a redis_unavailable line (stalled, outcome unknown), not internal', async () => {
    await stallable.admin.flushall();
    await seed('pending', 'bulk', 40_000);
    const r = await consoleRoutes();
    const act = (await consoleRoutes()).act;
    const { status, contentType, lines } = await stallMidStream(act.POST, '/api/tasks/search/act', {
      filter: { queue: 'q' },
      action: 'delete',
      preview: true,
    });
    expect(status).toBe(200);
    expect(contentType).toBe('application/x-ndjson');
    expect(lines.filter((l) => 'progress' in l).length).toBeGreaterThanOrEqual(1);
    const last = lines.at(-1)!;
    expect(last, JSON.stringify(last)).toHaveProperty('error');
    expect(last.error).toMatchObject({ code: 'redis_unavailable', reason: 'stalled', outcome: 'unknown' });
    expect((last.error as { message: string }).message).toContain(`Redis at 127.0.0.1:${stallable.server.port}/0 is `);
    await expectRecovered(r);
  });

  it('a re-run ends with the same redis_unavailable line, and what it moved stays moved', async () => {
    await stallable.admin.flushall();
    await seed('archived', 'big', 20_000);
    const r = await consoleRoutes();
    const rerun = (await consoleRoutes()).rerun;
    const { status, lines } = await stallMidStream(rerun.POST, '/api/handler-not-found/rerun', {
      queue: 'q',
      taskType: 'big',
      states: ['archived'],
    });
    expect(status).toBe(200);
    const last = lines.at(-1)!;
    expect(last, JSON.stringify(last)).toHaveProperty('error');
    expect(last.error).toMatchObject({ code: 'redis_unavailable', reason: 'stalled', outcome: 'unknown' });
    await expectRecovered(r);
    // Nothing lost or doubled: every task is in exactly one of the two places.
    expect((await stallable.admin.llen(k.pendingKey('q'))) + (await stallable.admin.zcard(k.archivedKey('q')))).toBe(20_000);
  });
});
