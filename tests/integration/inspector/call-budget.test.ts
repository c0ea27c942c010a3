/**
 * The time budget of the scripts that read their own clock (CALL_BUDGET_US): a call stops
 * early once its tasks took that long, says how far it got, and the caller goes on from
 * there, so no task is skipped or handled twice. A budget of 0 µs makes a call stop at its
 * first look at the clock (move-tasks.lua looks after each task, search-range.lua every 16),
 * which shows the contract without timing.
 */
import { describe, expect, it } from 'vitest';
import { bulkByIds, keys as k } from '@/lib/asynq';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { runScript } from '@/lib/asynq/scripts';
import { moveArgs } from '@/lib/asynq/mutations/task-actions';
import { scan } from '@/lib/asynq/search/scan';
import { useTestRedis } from '../../support/test-redis';

const DB = 98;
const redis = await useTestRedis(DB);
const Q = 'budget';

/** `n` pending tasks, the oldest at the tail as Enqueue leaves them. */
async function seedPending(n: number): Promise<string[]> {
  const ids: string[] = [];
  const p = redis.pipeline().sadd(k.ALL_QUEUES, Q);
  for (let i = 0; i < n; i++) {
    const id = `t-${String(i).padStart(6, '0')}`;
    ids.push(id);
    p.hset(k.taskKey(Q, id), 'msg', Buffer.from(encodeTaskMessage(newTaskMessage({ type: 't', queue: Q, id }))), 'state', 'pending');
    p.lpush(k.pendingKey(Q), id);
  }
  await p.exec();
  return ids;
}

describe('move-tasks.lua (bulkByIds)', () => {
  it('stops after the first task once its budget is spent, answering its codes, the trimmed and still-due counts and its time', async () => {
    const ids = await seedPending(5);
    const { keys, args } = moveArgs(Q, 'delete', 'pending', ids, new Date());
    const budgetAt = args.indexOf(ids[0]!) - 1;
    args[budgetAt] = 0;
    const reply = (await runScript(redis, 'moveTasks', keys, args)) as number[];
    // { code, trimmed, still due to be trimmed, elapsed µs }
    expect(reply).toHaveLength(4);
    expect(reply[0]).toBe(1);
    expect(reply[1]).toBe(0);
    expect(reply[2]).toBe(0);
    expect(reply[3]).toBeGreaterThanOrEqual(0);
    expect(await redis.lrange(k.pendingKey(Q), 0, -1)).toEqual(ids.slice(1).reverse());
  });

  it('bulkByIds goes on from where a call stopped: every ID handled once, in order', async () => {
    const ids = await seedPending(3000);
    // Newest first: each is at the far end of the list from where LREM starts.
    const chosen = ids.slice(-600).reverse();
    const done: number[] = [];
    const r = await bulkByIds(redis, Q, 'archive', 'pending', [...chosen, 'missing-id'], { onProgress: (p) => done.push(p.done) });
    expect(r.succeeded).toBe(600);
    expect(r.failed.map((f) => f.id)).toEqual(['missing-id']);
    expect(done.at(-1)).toBe(601);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(await redis.llen(k.pendingKey(Q))).toBe(2400);
    expect(await redis.zcard(k.archivedKey(Q))).toBe(600);
  });
});

describe('search-range.lua (the search scan)', () => {
  it('stops after 16 tasks once its budget is spent and says it was cut, not that the list ended', async () => {
    await seedPending(40);
    const reply = (await runScript(redis, 'searchRange', [k.pendingKey(Q)], ['list', 0, 40, k.taskKeyPrefix(Q), 1_000_000, 0])) as unknown[];
    expect(reply).toHaveLength(2 + 16 * 3);
    expect(Number(reply[1])).toBe(1);
    expect(String(reply[2])).toBe('t-000000');
    const full = (await runScript(redis, 'searchRange', [k.pendingKey(Q)], ['list', 30, 20, k.taskKeyPrefix(Q), 1_000_000, 1_000_000])) as unknown[];
    expect(Number(full[1]), 'the list ended: not cut').toBe(0);
    expect(full).toHaveLength(2 + 10 * 3);
  });

  it('a scan reads every task once, in order, across calls', async () => {
    const ids = await seedPending(2500);
    const seen: string[] = [];
    const r = await scan(redis, { queues: [Q], states: ['pending'], from: null, budget: Infinity, visit: (row) => (seen.push(row.id.toString()), 'next') });
    expect(r.reason).toBe('done');
    expect(seen).toEqual(ids);
  });
});
