/**
 * Bulk over a whole state on a real Redis: the batch of each script call follows what the
 * last one cost in Redis (the sizer's rule; on a real Redis it grows on cheap tasks, within its
 * bounds), tasks left in place are reported once, and with several batches in flight every
 * task is accounted for, also while producers enqueue into the same queue.
 *
 * Batch sizes are read from bulkAll's progress: it reports after each reply, in order, so the
 * step between two reports is what one call handled.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { bulkAll, keys as k, MAX_BATCH } from '@/lib/asynq';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { createCallSizer } from '@/lib/asynq/call-sizer';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';

const DB = 95;
const redis = await useTestRedis(DB);
const Q = 'bulk-sizing';

/** `n` tasks in `state` (pending: pushed at the head, as Enqueue does), each with its hash. */
async function seed(state: 'pending' | 'archived', n: number, tag: string, hashState: string = state, payloadBytes = 100): Promise<string[]> {
  const ids: string[] = [];
  const payload = Buffer.alloc(payloadBytes, 'x');
  for (let from = 0; from < n; from += 1000) {
    const p = redis.pipeline().sadd(k.ALL_QUEUES, Q);
    for (let i = from; i < Math.min(n, from + 1000); i++) {
      const id = `${tag}-${String(i).padStart(6, '0')}`;
      ids.push(id);
      const msg = Buffer.from(encodeTaskMessage(newTaskMessage({ type: 't', queue: Q, id, payload })));
      p.hset(k.taskKey(Q, id), 'msg', msg, 'state', hashState);
      if (state === 'pending') p.lpush(k.pendingKey(Q), id);
      else p.zadd(k.archivedKey(Q), 1_700_000_000 + i, id);
    }
    await p.exec();
  }
  return ids;
}

/** What each call handled, from the progress reports. */
function stepRecorder(): { onProgress: (p: { done: number }) => void; steps: number[] } {
  const steps: number[] = [];
  let last = 0;
  return {
    steps,
    onProgress: ({ done }) => {
      steps.push(done - last);
      last = done;
    },
  };
}

describe('the call sizer', () => {
  it('sizes by the cost per item of the last call, grows at most ×2, and stays within its bounds', () => {
    const s = createCallSizer({ first: 100, min: 10, max: 500, targetUs: 1000 });
    expect(s.size).toBe(100);
    s.observe(100, 100); // 1 µs an item: 1,000 fit, but at most twice the size
    expect(s.size).toBe(200);
    s.observe(200, 100);
    expect(s.size).toBe(400);
    s.observe(400, 100);
    expect(s.size).toBe(500); // the upper bound
    s.observe(500, 5000); // 10 µs an item: 100 fit, at once
    expect(s.size).toBe(100);
    s.observe(100, 100_000); // 1 ms an item: 1 would fit, the lower bound holds
    expect(s.size).toBe(10);
    s.observe(0, 50_000); // a call that handled nothing says nothing
    expect(s.size).toBe(10);
  });
});

describe('bulkAll batch sizing on a real Redis', () => {
  it('grows from its first batch on cheap tasks, never past 500 per call', async () => {
    await seed('pending', 6000, 'cheap');
    const rec = stepRecorder();
    const r = await bulkAll(redis, Q, 'delete', 'pending', { onProgress: rec.onProgress });
    expect(r).toMatchObject({ succeeded: 6000, failed: [], stopped: false });
    expect(rec.steps[0], 'the first call').toBe(100);
    expect(Math.max(...rec.steps), 'the batch grew past the first').toBeGreaterThan(100);
    expect(Math.max(...rec.steps), 'never past the upper bound').toBeLessThanOrEqual(MAX_BATCH);
    expect(rec.steps.reduce((a, b) => a + b, 0)).toBe(6000);
  });

  it('keeps to a smaller upper bound when given one', async () => {
    await seed('archived', 1000, 'capped');
    const rec = stepRecorder();
    const r = await bulkAll(redis, Q, 'run', 'archived', { batchSize: 40, onProgress: rec.onProgress });
    expect(r.succeeded).toBe(1000);
    expect(Math.max(...rec.steps)).toBeLessThanOrEqual(40);
    expect(rec.steps.filter((s) => s === 40).length, 'most calls at the bound').toBeGreaterThan(20);
  });

  it('reports each task left in place once and moves the rest, with costly tasks behind 20,000 entries', async () => {
    // 20,000 entries at the tail whose hash says another state stay in place (reported failed);
    // the 1,000 movable tasks come after them. Seeded first, so at the tail (LPUSH), which the
    // bulk reads first. How the calls shrink on costly tasks is the sizer's rule (pinned above);
    // where the cheap/costly boundary falls among the calls in flight, and what an LREM costs,
    // vary from run to run, so this checks the outcome and the bound, and the bench measures
    // each call's Redis time.
    await seed('pending', 20_000, 'stale', 'scheduled');
    const movable = await seed('pending', 1000, 'slow');
    expect(await redis.lindex(k.pendingKey(Q), -1)).toMatch(/^stale-/);
    const rec = stepRecorder();
    const r = await bulkAll(redis, Q, 'archive', 'pending', { onProgress: rec.onProgress });
    expect(r.failed.length, 'each stale entry reported once').toBe(20_000);
    expect(new Set(r.failed.map((f) => f.id)).size).toBe(20_000);
    expect(r.succeeded).toBe(1000);
    expect(await redis.zcard(k.archivedKey(Q))).toBe(1000);
    expect(await redis.llen(k.pendingKey(Q)), 'the stale entries stay').toBe(20_000);
    for (const id of movable) expect(await redis.hget(k.taskKey(Q, id), 'state')).toBe('archived');
    expect(Math.max(...rec.steps), 'never past the upper bound').toBeLessThanOrEqual(MAX_BATCH);
    expect(rec.steps.reduce((x, y) => x + y, 0)).toBe(21_000);
  });
});

describe('bulkAll with batches in flight: every task accounted for', () => {
  /** A producer on its own connection enqueueing `n` tasks into Q while the bulk runs. */
  async function produce(n: number, stop: () => boolean): Promise<string[]> {
    const other = new Redis(testRedisUrl(DB));
    const ids: string[] = [];
    try {
      for (let i = 0; i < n && !stop(); i++) {
        const info = await enqueueTask(other, { type: 'late', payload: Buffer.from(String(i)) }, { queue: Q }, new Date());
        ids.push(info.id);
      }
    } finally {
      other.disconnect();
    }
    return ids;
  }

  it('delete-all while tasks are enqueued: each seeded task is gone, each new one is gone or still fully pending', async () => {
    const seeded = await seed('pending', 8000, 'del');
    let done = false;
    const producer = produce(3000, () => done);
    const r = await bulkAll(redis, Q, 'delete', 'pending').finally(() => (done = true));
    const late = await producer;
    expect(late.length).toBeGreaterThan(0);
    expect(r.failed).toEqual([]);
    for (const id of seeded) expect(await redis.exists(k.taskKey(Q, id)), id).toBe(0);
    const pending = await redis.lrange(k.pendingKey(Q), 0, -1);
    expect(new Set(pending).size, 'no ID twice in pending').toBe(pending.length);
    const inList = new Set(pending);
    let lateGone = 0;
    for (const id of late) {
      const state = await redis.hget(k.taskKey(Q, id), 'state');
      // Never half-moved: a hash without its list entry, or an entry without its hash.
      if (inList.has(id)) expect(state, id).toBe('pending');
      else {
        expect(state, `${id} left the list but kept its hash`).toBeNull();
        lateGone++;
      }
    }
    expect(pending.every((id) => late.includes(id)), 'only late tasks remain').toBe(true);
    expect(r.succeeded, 'every deletion counted once').toBe(seeded.length + lateGone);
  });

  it('run-all over archived while tasks are enqueued into pending: each task in pending exactly once, nothing left archived', async () => {
    const seeded = await seed('archived', 8000, 'run');
    let done = false;
    const producer = produce(3000, () => done);
    const r = await bulkAll(redis, Q, 'run', 'archived').finally(() => (done = true));
    const late = await producer;
    expect(r).toMatchObject({ succeeded: 8000, failed: [], stopped: false });
    expect(await redis.zcard(k.archivedKey(Q))).toBe(0);
    const pending = await redis.lrange(k.pendingKey(Q), 0, -1);
    expect(pending.length).toBe(seeded.length + late.length);
    expect(new Set(pending).size, 'no ID twice').toBe(pending.length);
    const expected = new Set([...seeded, ...late]);
    expect(pending.every((id) => expected.has(id))).toBe(true);
    const states = await Promise.all(seeded.slice(0, 500).map((id) => redis.hget(k.taskKey(Q, id), 'state')));
    expect(new Set(states)).toEqual(new Set(['pending']));
  });

  it('stops between batches when asked, with every call sent answered and counted', async () => {
    await seed('archived', 5000, 'stop');
    const ac = new AbortController();
    const r = await bulkAll(redis, Q, 'run', 'archived', {
      signal: ac.signal,
      onProgress: ({ done }) => {
        if (done >= 1000) ac.abort();
      },
    });
    expect(r.stopped).toBe(true);
    expect(r.succeeded).toBeGreaterThanOrEqual(1000);
    expect(r.succeeded).toBeLessThan(5000);
    // What bulkAll counted is exactly what moved: nothing ran after it returned.
    expect(await redis.llen(k.pendingKey(Q))).toBe(r.succeeded);
    expect(await redis.zcard(k.archivedKey(Q))).toBe(5000 - r.succeeded);
  });
});
