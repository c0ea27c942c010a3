/**
 * GET /api/queues with thousands of queues: without parameters every queue up to
 * QUEUE_LIST_DEFAULT_SIZE (today's answer, unchanged for small deployments), past it the first
 * page by name with `total`; `page`, `size`, `search`, `sort` and `order` page, filter and sort
 * the shared snapshot; a bad parameter is a 400 naming it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_LIST_DEFAULT_SIZE } from '@/lib/contract/queues';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';

const DB = 88;
const { redis, routes } = await useConsoleRoutes(DB, { flushEach: false });
const QUEUES = 1200;
const name = (i: number) => `q${String(i).padStart(4, '0')}`;

beforeAll(async () => {
  await redis.flushdb();
  // Queue i holds i % 7 pending tasks (at least one, so it exists); 200 queues at a time.
  for (let from = 0; from < QUEUES; from += 200) {
    await Promise.all(
      Array.from({ length: 200 }, async (_, j) => {
        const queue = name(from + j);
        for (let t = 0; t < Math.max(1, (from + j) % 7); t++) await seedPending(redis, newTaskMessage({ type: 't', queue }));
      }),
    );
  }
});

type Row = { queue: string; pending: number };
const get = async (qs = '') => {
  const res = await callRoute(routes.queues.GET, `/api/queues${qs}`);
  return res as { status: number; body: { queues: Row[]; page?: number; size?: number; total?: number; error?: { message: string } } };
};

describe('GET /api/queues at 1,200 queues', () => {
  it('answers the first page by name, with the total, when no page is asked for', async () => {
    const { status, body } = await get();
    expect(status).toBe(200);
    expect(body).toMatchObject({ page: 1, size: QUEUE_LIST_DEFAULT_SIZE, total: QUEUES });
    expect(body.queues).toHaveLength(QUEUE_LIST_DEFAULT_SIZE);
    expect(body.queues[0]!.queue).toBe(name(0));
    expect(body.queues.at(-1)!.queue).toBe(name(QUEUE_LIST_DEFAULT_SIZE - 1));
  });

  it('pages by name', async () => {
    const { body } = await get('?page=3&size=500');
    expect(body).toMatchObject({ page: 3, size: 500, total: QUEUES });
    expect(body.queues.map((q) => q.queue)).toEqual(Array.from({ length: 200 }, (_, i) => name(1000 + i)));
    expect((await get('?page=4&size=500')).body.queues).toEqual([]);
  });

  it('filters by a part of the name, case-insensitive', async () => {
    const { body } = await get('?search=Q011&size=100');
    expect(body.total).toBe(10);
    expect(body.queues.map((q) => q.queue)).toEqual(Array.from({ length: 10 }, (_, i) => name(110 + i)));
  });

  it('sorts by a count, ties by name, either way', async () => {
    const desc = (await get('?sort=pending&order=desc&size=3')).body.queues;
    expect(desc.map((q) => [q.queue, q.pending])).toEqual([[name(6), 6], [name(13), 6], [name(20), 6]]);
    const asc = (await get('?sort=pending&size=2')).body.queues;
    expect(asc.map((q) => [q.queue, q.pending])).toEqual([[name(0), 1], [name(1), 1]]);
    const byName = (await get('?order=desc&size=1')).body.queues;
    expect(byName.map((q) => q.queue)).toEqual([name(QUEUES - 1)]);
  });

  it('refuses a bad parameter by name', async () => {
    for (const [qs, field] of [['?size=0', 'size'], ['?size=1001', 'size'], ['?page=0', 'page'], ['?sort=memory', 'sort'], ['?order=up', 'order'], [`?search=${'x'.repeat(257)}`, 'search']]) {
      const { status, body } = await get(qs);
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toContain(field);
    }
  });
});

describe('GET /api/queues at a few queues', () => {
  it('is the whole list without page fields, as before', async () => {
    await redis.flushdb();
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'a' }));
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'b' }));
    await new Promise((r) => setTimeout(r, 1100)); // past the shared snapshot of the 1,200 queues
    const { status, body } = await get();
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['queues']);
    expect(body.queues.map((q) => q.queue)).toEqual(['a', 'b']);
  });
});
