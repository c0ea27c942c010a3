/**
 * Group aggregation: a group is aggregated by size, by max delay or after its grace period;
 * the user's aggregator builds one task that is enqueued into the same queue and processed;
 * the group's tasks are deleted; a set left by a dead server goes back to its group.
 */
import { describe, expect, it } from 'vitest';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import * as k from '@/lib/asynq/keys';
import { ServeMux, type GroupAggregator } from '@/lib/asynq/worker';
import { aggregationCheck } from '@/lib/asynq/worker/rdb/aggregation';
import { resolveConfig } from '@/lib/asynq/worker/config';
import { recover } from '@/lib/asynq/worker/recoverer';
import { useTestRedis } from '../../support/test-redis';
import { nowSec, startTestServer, useServers, waitFor } from './helpers';

const DB = 34;
const redis = await useTestRedis(DB);
const servers = useServers();

// Tasks added within one second share a score and come back in ID order, so items are sorted.
const joinPayloads: GroupAggregator = (group, tasks) => ({
  type: 'digest',
  payload: Buffer.from(JSON.stringify({ group, items: tasks.map((t) => Buffer.from(t.payload).toString()).sort() })),
  options: { retentionSeconds: 600 },
});

async function addToGroup(group: string, n: number, queue = 'default'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await enqueueTask(redis, { type: 'event', payload: Buffer.from(`e${i}`) }, { group, queue }, new Date())).id);
  }
  return ids;
}

function digestMux(seen: { queue: string; payload: string }[]) {
  return new ServeMux().handleFunc('digest', (c, t) => void seen.push({ queue: c.queue, payload: Buffer.from(t.payload).toString() }));
}

describe('aggregation in the server', () => {
  it('aggregates a group that reached maxSize into one task of the same queue, deleting the members', async () => {
    const ids = await addToGroup('tenant-a', 3, 'notifications');
    const seen: { queue: string; payload: string }[] = [];
    servers.push((await startTestServer(redis, digestMux(seen), {
      queues: { notifications: 1 },
      groupAggregator: joinPayloads,
      groupMaxSize: 3,
      groupGracePeriodMs: 60_000,
    })).server);
    // The check interval is min(7 s, grace period): 7 s here.
    await waitFor('digest processed', () => seen.length === 1, 15_000);
    expect(seen[0]).toEqual({ queue: 'notifications', payload: '{"group":"tenant-a","items":["e0","e1","e2"]}' });
    for (const id of ids) expect(await redis.exists(k.taskKey('notifications', id))).toBe(0);
    expect(await redis.exists(k.groupKey('notifications', 'tenant-a'))).toBe(0);
    expect(await redis.smembers(k.allGroups('notifications'))).toEqual([]);
    expect(await redis.zcard(k.allAggregationSets('notifications'))).toBe(0);
    expect(await redis.zcard(k.completedKey('notifications'))).toBe(1);
  }, 20_000);

  it('aggregates after the grace period when no task joins, keeping groups apart', async () => {
    await addToGroup('g1', 2);
    await addToGroup('g2', 1);
    const seen: { queue: string; payload: string }[] = [];
    servers.push((await startTestServer(redis, digestMux(seen), { groupAggregator: joinPayloads, groupGracePeriodMs: 1000 })).server);
    await waitFor('two digests', () => seen.length === 2, 8000);
    expect(seen.map((s) => s.payload).sort()).toEqual([
      '{"group":"g1","items":["e0","e1"]}',
      '{"group":"g2","items":["e0"]}',
    ]);
  });

  it('does not aggregate without an aggregator', async () => {
    await addToGroup('g1', 2);
    servers.push((await startTestServer(redis, new ServeMux(), { groupGracePeriodMs: 1000 })).server);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await redis.zcard(k.groupKey('default', 'g1'))).toBe(2);
  });

  it('an aggregator that throws leaves the set for the recoverer, which returns it to the group', async () => {
    const ids = await addToGroup('g1', 2);
    const { server, logs } = await startTestServer(redis, new ServeMux(), {
      groupGracePeriodMs: 1000,
      groupAggregator: () => {
        throw new Error('aggregator broke');
      },
    });
    servers.push(server);
    await waitFor('set made', async () => (await redis.zcard(k.allAggregationSets('default'))) === 1, 8000);
    await waitFor('logged', () => logs.some((l) => l.includes('aggregator broke')));
    await server.shutdown();
    expect(await redis.exists(k.groupKey('default', 'g1'))).toBe(0);
    // Two minutes later, any server's recoverer puts the tasks back.
    await recover(redis, resolveConfig({ queues: { default: 1 }, clock: { now: () => new Date(Date.now() + 121_000) } }));
    expect((await redis.zrange(k.groupKey('default', 'g1'), 0, -1)).sort()).toEqual([...ids].sort());
    expect(await redis.smembers(k.allGroups('default'))).toEqual(['g1']);
    expect(await redis.zcard(k.allAggregationSets('default'))).toBe(0);
  }, 15_000);
});

describe('aggregation check', () => {
  const limits = { maxSize: 0, maxDelaySeconds: 0, gracePeriodSeconds: 60 };
  it('waits for the grace period after the newest task', async () => {
    await addToGroup('g', 2);
    expect(await aggregationCheck(redis, 'default', 'g', limits, new Date())).toBeNull();
    expect(await aggregationCheck(redis, 'default', 'g', limits, new Date(Date.now() + 61_000))).not.toBeNull();
  });

  it('maxDelay counts from the oldest task', async () => {
    const now = nowSec();
    await redis.zadd(k.groupKey('default', 'g'), now - 100, 'old', now, 'new');
    await redis.sadd(k.allGroups('default'), 'g');
    const setKey = await aggregationCheck(redis, 'default', 'g', { ...limits, maxDelaySeconds: 90 }, new Date());
    expect(setKey).toMatch(/^asynq:\{default\}:g:g:[0-9a-f-]{36}$/);
    expect(await redis.zrange(setKey!, 0, -1)).toEqual(['old', 'new']);
    expect(Number(await redis.zscore(k.allAggregationSets('default'), setKey!))).toBeGreaterThanOrEqual(now + 120);
    expect(await redis.smembers(k.allGroups('default'))).toEqual([]);
  });

  it('maxSize takes only the oldest maxSize tasks and keeps the group listed while tasks remain', async () => {
    const now = nowSec();
    await redis.zadd(k.groupKey('default', 'g'), now - 3, 'a', now - 2, 'b', now - 1, 'c');
    await redis.sadd(k.allGroups('default'), 'g');
    const setKey = await aggregationCheck(redis, 'default', 'g', { ...limits, maxSize: 2 }, new Date());
    expect(await redis.zrange(setKey!, 0, -1)).toEqual(['a', 'b']);
    expect(await redis.zrange(k.groupKey('default', 'g'), 0, -1)).toEqual(['c']);
    expect(await redis.smembers(k.allGroups('default'))).toEqual(['g']);
  });
});
