/**
 * A Sentinel deployment whose sentinels do not answer (a closed port). ioredis retries the
 * sentinels within one connect attempt, without closing; every request must still answer 503
 * `unreachable` naming the sentinel master at once, a change must say that nothing was
 * changed, and nothing may be reported as a stall.
 */
import { describe, expect, it } from 'vitest';
import { freePort } from '../../e2e/support/app-server';
import { consoleRoutes } from '../../support/console-routes';
import { get, post, report, timed } from '../faults/helpers';

/** A refused connect takes a millisecond; a request that waited for a timeout would take ≥ 2 s. */
const FAST_MS = 500;

describe('sentinels that do not answer', () => {
  it('every request answers 503 unreachable naming the master at once, reads and changes alike', async () => {
    const sentinel = `127.0.0.1:${await freePort()}`;
    process.env.REDIS_URL = 'redis://ignored.invalid:6379/0';
    process.env.ASYNQLENS_REDIS_SENTINELS = sentinel;
    process.env.ASYNQLENS_REDIS_SENTINEL_MASTER = 'mymaster';
    process.env.ASYNQLENS_COMMAND_TIMEOUT_MS = '2000';
    const r = await consoleRoutes();
    for (let i = 0; i < 3; i++) {
      const res = await timed(() => get(r.queues.GET));
      if (i === 0) report(`sentinels not answering: queue list → ${res.status}`, res.ms);
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'unreachable' });
      expect(res.body.error.message).toContain(`Redis at sentinel master "mymaster" via ${sentinel} is unreachable`);
      expect(res.ms).toBeLessThan(FAST_MS);
    }
    const change = await timed(() => post(r.tasks.POST, { qname: 'q' }, { type: 't' }));
    report('sentinels not answering: enqueue → 503', change.ms);
    expect(change.status).toBe(503);
    expect(change.body.error.message).toMatch(/Nothing was changed\.$/);
    expect(change.ms).toBeLessThan(FAST_MS);
  });
});
