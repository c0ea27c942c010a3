/**
 * Task pages in asynq's order and its reverse on a real Redis: every state, asc and desc, the
 * first page and a far one, ties (equal scores) in a stable order, one script call per page,
 * and a sort that would need a scan refused naming `sort`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createInspector } from '@/lib/asynq';
import { fixedClock } from '@/lib/asynq/clock';
import type { TaskState } from '@/lib/asynq/states';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { countCommands } from '../../support/command-counter';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';

const DB = 47;
const redis = await useTestRedis(DB);
const NOW = new Date('2026-06-01T12:00:00Z');
const inspector = createInspector(redis, { clock: fixedClock(NOW) });
const Q = 'ord';
const N = 25;
const id = (i: number) => `t${String(i).padStart(2, '0')}`;
/** Scores with runs of ties: tasks 3i, 3i+1, 3i+2 share one score, given in a shuffled order. */
const score = (i: number) => 1_780_000_000 + Math.floor(i / 3) * 60;
const seedOrder = Array.from({ length: N }, (_, i) => (i * 7) % N);

/** Seeds N tasks of `state`; returns their IDs in asynq's (ascending) listing order. */
async function seed(state: TaskState, group = 'g'): Promise<string[]> {
  if (state === 'pending' || state === 'active') {
    for (const i of seedOrder) {
      const m = newTaskMessage({ id: id(i), type: 't', queue: Q });
      await (state === 'pending' ? seedPending(redis, m) : seedActive(redis, m));
    }
    return seedOrder.map(id); // a list: the first pushed is the oldest, listed first
  }
  for (const i of seedOrder) {
    const m = newTaskMessage({ id: id(i), type: 't', queue: Q, groupKey: group });
    if (state === 'aggregating') await seedAggregating(redis, m, score(i));
    else await seedZset(redis, state, m, score(i));
  }
  return Array.from({ length: N }, (_, i) => id(i)); // by score, ties by member
}

const page = async (state: TaskState, p: number, order: 'asc' | 'desc', group?: string) =>
  (await inspector.tasks(Q, state, { page: p, size: 10, order, group })).tasks.map((t) => t.id);

describe('task pages in both orders', () => {
  beforeEach(async () => {
    await redis.flushdb();
  });

  it.each(['pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'] as const)(
    '%s: asc is asynq order, desc its exact reverse, on page 1 and the far page',
    async (state) => {
      const asc = await seed(state);
      const desc = [...asc].reverse();
      const group = state === 'aggregating' ? 'g' : undefined;
      expect(await page(state, 1, 'asc', group)).toEqual(asc.slice(0, 10));
      expect(await page(state, 1, 'desc', group)).toEqual(desc.slice(0, 10));
      expect(await page(state, 3, 'asc', group)).toEqual(asc.slice(20));
      expect(await page(state, 3, 'desc', group)).toEqual(desc.slice(20));
      expect(await page(state, 9, 'desc', group)).toEqual([]);
      // Every page read again gives the same split: no task twice, none missed, ties included.
      const all = [...(await page(state, 1, 'desc', group)), ...(await page(state, 2, 'desc', group)), ...(await page(state, 3, 'desc', group))];
      expect(all).toEqual(desc);
      expect((await inspector.tasks(Q, state, { page: 3, size: 10, order: 'desc', group })).total).toBe(N);
    },
  );

  it('aggregating without a group: desc reverses the whole listing (groups by name, then join time)', async () => {
    const a = await seed('aggregating', 'a');
    await redis.flushdb();
    const ids = async (g: string) => {
      for (const i of seedOrder) await seedAggregating(redis, newTaskMessage({ id: `${g}${id(i)}`, type: 't', queue: Q, groupKey: g }), score(i));
      return a.map((x) => `${g}${x}`);
    };
    const asc = [...(await ids('a')), ...(await ids('b'))];
    const read = async (order: 'asc' | 'desc') => {
      const out: string[] = [];
      for (let p = 1; p <= 5; p++) out.push(...(await page('aggregating', p, order)));
      return out;
    };
    expect(await read('asc')).toEqual(asc);
    expect(await read('desc')).toEqual([...asc].reverse());
  });

  it('reads a far desc page in one script call, no scan', async () => {
    await seed('archived');
    const { commands, scriptCommands } = await countCommands(testRedisUrl(DB), DB, () => page('archived', 3, 'desc'));
    expect(commands.filter((c) => c.startsWith('eval'))).toHaveLength(1);
    expect(scriptCommands).toContain('zrevrange');
    expect(scriptCommands).not.toContain('zrange');
    expect(scriptCommands.filter((c) => c === 'hmget')).toHaveLength(N - 20);
  });

  it.each([
    ['archived', 'archived_at', true],
    ['completed', 'expires_at', true],
    ['pending', 'position', true],
    ['scheduled', 'next_process_at', true],
    ['archived', 'type', false],
    ['pending', 'next_process_at', false],
  ] as const)('%s sorted by %s: allowed %s', async (state, sort, ok) => {
    await seed('archived');
    const run = inspector.tasks(Q, state, { page: 1, size: 10, sort, order: 'desc' });
    if (ok) await expect(run).resolves.toBeDefined();
    else await expect(run).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'sort' }, message: expect.stringContaining('needs a scan') });
  });
});
