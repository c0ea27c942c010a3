/**
 * The re-run's exact counts: GET /api/handler-not-found/count states what a re-run would move
 * at that moment (the confirmation's number), the re-run's result then says what it found and
 * moved, so a task that failed the same way in between shows up as the difference; and the
 * overview's banner sees a re-run in progress with its progress (any console replica's, through
 * Redis), and not after it.
 */
import { describe, expect, it } from 'vitest';
import { activeReruns, RERUNS_KEY } from '@/lib/server/jobs/reruns';
import { consoleRoutes } from '../../support/console-routes';
import { get, notFoundError, postJson, postNdjson, seedFailed, useTriageRedis } from './helpers';

const DB = 127;
const routes = await consoleRoutes();
const redis = await useTriageRedis(DB);

const count = (q: string, type: string) => get(routes.notFoundCount.GET, `/api/handler-not-found/count?queue=${encodeURIComponent(q)}&type=${encodeURIComponent(type)}`);

describe('GET /api/handler-not-found/count', () => {
  it('counts exactly the not-found tasks of the type in the queue, per state, read now', async () => {
    for (let i = 0; i < 3; i++) await seedFailed(redis, { queue: 'q', type: 'a:b', state: 'archived', error: notFoundError('a:b') });
    await seedFailed(redis, { queue: 'q', type: 'a:b', state: 'retry', error: notFoundError('a:b') });
    await seedFailed(redis, { queue: 'q', type: 'a:b', state: 'archived', error: 'boom' });
    await seedFailed(redis, { queue: 'q', type: 'a:c', state: 'archived', error: notFoundError('a:c') });
    await seedFailed(redis, { queue: 'other', type: 'a:b', state: 'archived', error: notFoundError('a:b') });
    const r = await count('q', 'a:b');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ queue: 'q', taskType: 'a:b', retry: 1, archived: 3 });
    expect(Date.parse(r.body.countedAt)).toBeGreaterThan(Date.now() - 10_000);

    // One more fails the same way after the count: the re-run finds and moves it too, and its
    // result is what the dialog sets against the count.
    await seedFailed(redis, { queue: 'q', type: 'a:b', state: 'archived', error: notFoundError('a:b') });
    expect((await count('q', 'a:b')).body).toMatchObject({ retry: 1, archived: 4 });
    const run = await postJson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'q', taskType: 'a:b' });
    expect(run.body).toMatchObject({ succeeded: 5, byState: { archived: { found: 4, succeeded: 4 }, retry: { found: 1, succeeded: 1 } } });
    expect((await count('q', 'a:b')).body).toMatchObject({ retry: 0, archived: 0 });
  });

  it('answers 404 for an unknown queue and 400 naming the field for a bad query', async () => {
    const missing = await count('nope', 't');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('queue_not_found');
    const noType = await get(routes.notFoundCount.GET, '/api/handler-not-found/count?queue=q');
    expect(noType.status).toBe(400);
    expect(noType.body.error.field).toBe('type');
    const long = await count('q', 'x'.repeat(1001));
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/type must be at most 1000 characters/);
  });
});

describe('re-runs in progress, as the banner sees them', () => {
  it('lists a running re-run with its latest progress, in Redis for every replica too, and forgets it when it ends', async () => {
    for (let i = 0; i < 1200; i++) await seedFailed(redis, { queue: 'q', type: 'big', state: 'archived', error: notFoundError('big') });
    const seen: unknown[] = [];
    const published: Record<string, string>[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        seen.push(...(await activeReruns()));
        published.push(await redis.hgetall(RERUNS_KEY));
      }
    })();
    try {
      await postNdjson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'q', taskType: 'big', states: ['archived'] });
    } finally {
      polling = false;
      await poll;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((r) => (r as { progress: { phase: string } | null }).progress?.phase === 'running')).toBe(true);
    expect(seen.every((r) => (r as { queue: string; taskType: string }).queue === 'q' && (r as { taskType: string }).taskType === 'big')).toBe(true);
    // What another console replica reads: the entry under the console's own key, with its expiry.
    const entry = published.map((h) => h[JSON.stringify(['q', 'big'])]).find(Boolean);
    expect(JSON.parse(entry!)).toMatchObject({ queue: 'q', taskType: 'big', expiresAt: expect.any(String) });
    expect(await activeReruns()).toEqual([]);
    expect(await redis.exists(RERUNS_KEY)).toBe(0);
  });

  it('shows a re-run another replica publishes, until its entry expires', async () => {
    const entry = (taskType: string, expiresInMs: number) =>
      JSON.stringify({ queue: 'q', taskType, startedAt: new Date().toISOString(), progress: { phase: 'running', state: 'archived', done: 5, total: 9 }, expiresAt: new Date(Date.now() + expiresInMs).toISOString() });
    await redis.hset(RERUNS_KEY, JSON.stringify(['q', 'elsewhere']), entry('elsewhere', 10_000), JSON.stringify(['q', 'crashed']), entry('crashed', -1), 'junk', '{');
    expect(await activeReruns()).toEqual([{ queue: 'q', taskType: 'elsewhere', startedAt: expect.any(String), progress: { phase: 'running', state: 'archived', done: 5, total: 9 } }]);
  });
});
