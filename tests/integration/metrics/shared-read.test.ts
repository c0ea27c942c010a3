/**
 * Scrapes and dashboards share one Redis read: with shared snapshots on, ten concurrent scrapes
 * and ten queue-list requests cost Redis the two commands of a single queue-list read. The
 * exposition is built once per interval: every scraper in it gets the same bytes.
 */
import { describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';
import { countCommands } from '../../support/command-counter';
import { testRedisUrl } from '../../support/test-redis';
import { splitScrape } from './parse-exposition';

const DB = 82;
const { redis, routes } = await useConsoleRoutes(DB, { env: { ASYNQLENS_AUTH: 'none', ASYNQLENS_SNAPSHOT_MS: '60000' }, flushEach: false });

describe('scrapes share the dashboard snapshot', () => {
  it('serves 10 scrapes and 10 queue lists with one Redis read', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'shared' }));
    const { metrics, queues, pause } = routes;
    await callRoute(queues.GET, '/api/queues'); // loads the script
    // A mutation clears every snapshot, so the next read is fresh and must see the pause.
    const paused = await callRoute(pause.POST, '/api/x', { qname: 'shared' }, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(paused.status).toBe(200);

    const { result, commands } = await countCommands(testRedisUrl(DB), DB, () =>
      Promise.all([
        ...Array.from({ length: 10 }, () => callRoute(metrics.GET, '/api/metrics')),
        ...Array.from({ length: 10 }, () => callRoute(queues.GET, '/api/queues')),
      ]),
    );
    expect(commands).toEqual(['sscan', 'evalsha_ro']);
    for (const r of result.slice(0, 10)) expect(r.bytes.toString()).toContain('asynq_queue_paused_total{queue="shared"} 1\n');
    for (const r of result.slice(10)) expect(r.body.queues[0].paused).toBe(true);
  });

  it('sends every scraper in an interval the same bytes, built once', async () => {
    const { metrics } = routes;
    const { result, commands } = await countCommands(testRedisUrl(DB), DB, async () => [
      await callRoute(metrics.GET, '/api/metrics'),
      await callRoute(metrics.GET, '/api/metrics'),
    ]);
    expect(commands).toEqual([]); // the first test's read is still fresh
    const [a, b] = result;
    expect(a!.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(a!.headers.get('content-length')).toBe(String(a!.bytes.length));
    // The asynq part is the same build (even the scrape's duration, measured when it was built,
    // is the same); the console's own metrics after it are collected per scrape.
    const [ta, tb] = [splitScrape(a!.bytes.toString()), splitScrape(b!.bytes.toString())];
    expect(tb.asynq).toBe(ta.asynq);
    expect(tb.telemetry).not.toBe(ta.telemetry);
    expect(ta.asynq).toMatch(/^asynqlens_scrape_duration_seconds \S+$/m);
    expect(a!.bytes.toString()).toContain('asynq_queue_paused_total{queue="shared"} 1\n');
  });
});
