/**
 * The read routes against a real Redis seeded the way asynq writes it.
 */
import { describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedLock, seedPending, seedZset } from '@/lib/asynq/testutil/seed';

const DB = 1;
const { redis, routes } = await useConsoleRoutes(DB);

const list = (q: string, qs: string) =>
  callRoute(routes.tasks.GET, `/api/queues/${encodeURIComponent(q)}/tasks?${qs}`, { qname: q });

describe('GET /api/queues', () => {
  it('returns every queue sorted by name with its size per state and today’s counters', async () => {
    const now = Math.floor(Date.now() / 1000);
    await seedPending(redis, newTaskMessage({ type: 'a', queue: 'b-queue' }), (BigInt(Date.now()) - 10_000n) * 1_000_000n);
    await seedPending(redis, newTaskMessage({ type: 'a', queue: 'b-queue' }));
    await seedActive(redis, newTaskMessage({ type: 'a', queue: 'b-queue' }));
    await seedZset(redis, 'scheduled', newTaskMessage({ type: 'a', queue: 'b-queue' }), now + 60);
    await seedZset(redis, 'retry', newTaskMessage({ type: 'a', queue: 'b-queue' }), now + 60);
    await seedZset(redis, 'archived', newTaskMessage({ type: 'a', queue: 'b-queue' }), now);
    await seedZset(redis, 'completed', newTaskMessage({ type: 'a', queue: 'b-queue' }), now + 3600);
    await seedAggregating(redis, newTaskMessage({ type: 'a', queue: 'b-queue', groupKey: 'g' }));
    await seedPending(redis, newTaskMessage({ type: 'a', queue: 'a-queue' }));
    await redis.set(k.processedKey('b-queue', new Date()), 7);
    await redis.set(k.failedKey('b-queue', new Date()), 2);
    await redis.set(k.processedTotalKey('b-queue'), 70);
    await redis.set(k.pausedKey('b-queue'), now);

    const { status, body } = await callRoute(routes.queues.GET, '/api/queues');
    expect(status).toBe(200);
    expect(body.queues.map((q: { queue: string }) => q.queue)).toEqual(['a-queue', 'b-queue']);
    expect(body.queues[1]).toMatchObject({
      queue: 'b-queue', paused: true, size: 8, pending: 2, active: 1, scheduled: 1, retry: 1,
      archived: 1, completed: 1, aggregating: 1, aggregatingExact: true, groups: 1,
      processed: 7, failed: 2, processedTotal: 70, failedTotal: 0, memoryUsageBytes: null,
    });
    // Latency is the age of the tail of the pending list, from its nanosecond pending_since.
    expect(body.queues[1].latencySeconds).toBeGreaterThanOrEqual(10);
    expect(body.queues[1].latencySeconds).toBeLessThan(15);
  });
});

describe('GET /api/queues/{q}/tasks', () => {
  it('lists pending oldest first and zsets by ascending score, page by page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = newTaskMessage({ type: 't', queue: 'q', payload: json({ i }) });
      ids.push(m.id);
      await seedPending(redis, m);
    }
    const p1 = await list('q', 'state=pending&page=1&size=2');
    expect(p1.body.total).toBe(5);
    expect(p1.body.tasks.map((t: { id: string }) => t.id)).toEqual(ids.slice(0, 2));
    const p3 = await list('q', 'state=pending&page=3&size=2');
    expect(p3.body.tasks.map((t: { id: string }) => t.id)).toEqual(ids.slice(4));

    const scores = [30, 10, 20];
    const byScore: [number, string][] = [];
    for (const s of scores) {
      const m = newTaskMessage({ type: 't', queue: 'q' });
      byScore.push([s, m.id]);
      await seedZset(redis, 'archived', m, 1_700_000_000 + s);
    }
    const arch = await list('q', 'state=archived');
    expect(arch.body.tasks.map((t: { id: string }) => t.id)).toEqual(byScore.sort((a, b) => a[0] - b[0]).map(([, id]) => id));
  });

  it('flags a task whose hash is missing or whose msg is not protobuf, and keeps the rest of the page', async () => {
    const good1 = newTaskMessage({ type: 't', queue: 'q' });
    const good2 = newTaskMessage({ type: 't', queue: 'q' });
    await seedPending(redis, good1);
    await redis.lpush(k.pendingKey('q'), 'ghost');
    await redis.hset(k.taskKey('q', 'garbage'), 'msg', Buffer.from([0xff, 0xff, 0xff, 0x07]), 'state', 'pending');
    await redis.lpush(k.pendingKey('q'), 'garbage');
    await seedPending(redis, good2);

    const { status, body } = await list('q', 'state=pending');
    expect(status).toBe(200);
    expect(body.tasks.map((t: { id: string; problem: string | null }) => [t.id, t.problem?.split(':')[0] ?? null])).toEqual([
      [good1.id, null],
      ['ghost', 'task hash missing'],
      ['garbage', 'msg is not a valid TaskMessage'],
      [good2.id, null],
    ]);
    expect(body.tasks[3]).toMatchObject({ type: 't', state: 'pending', problem: null });
  });

  it('rejects bad parameters with 400 invalid_argument naming the parameter', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    for (const [qs, field] of [
      ['state=pending&size=0', 'size'],
      ['state=pending&size=101', 'size'],
      ['state=pending&page=-1', 'page'],
      ['state=pending&page=0', 'page'],
      ['state=nope', 'state'],
      ['', 'state'],
    ] as const) {
      const { status, body } = await list('q', qs);
      expect(status, qs).toBe(400);
      expect(body.error.code).toBe('invalid_argument');
      expect(body.error.message).toContain(field);
      expect(body.error.field).toBe(field);
    }
  });

  it('answers 404 queue_not_found for a queue that is not in asynq:queues', async () => {
    const { status, body } = await list('missing', 'state=pending');
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: 'queue_not_found', message: 'queue "missing" does not exist' });
    expect((await callRoute(routes.queue.GET, '/api/queues/missing', { qname: 'missing' })).status).toBe(404);
    expect((await callRoute(routes.history.GET, '/api/queues/missing/history', { qname: 'missing' })).status).toBe(404);
    expect((await callRoute(routes.groups.GET, '/api/queues/missing/groups', { qname: 'missing' })).status).toBe(404);
  });

  it('lists aggregating tasks of one group, or of every group by name', async () => {
    const a = newTaskMessage({ type: 't', queue: 'q', groupKey: 'b' });
    const b = newTaskMessage({ type: 't', queue: 'q', groupKey: 'a' });
    await seedAggregating(redis, a);
    await seedAggregating(redis, b);
    expect((await list('q', 'state=aggregating&group=b')).body.tasks.map((t: { id: string }) => t.id)).toEqual([a.id]);
    const all = await list('q', 'state=aggregating');
    expect(all.body.total).toBe(2);
    expect(all.body.tasks.map((t: { id: string }) => t.id)).toEqual([b.id, a.id]);
    const groups = await callRoute(routes.groups.GET, '/api/queues/q/groups', { qname: 'q' });
    expect(groups.body.groups).toEqual([{ group: 'a', size: 1 }, { group: 'b', size: 1 }]);
  });
});

describe('GET /api/queues/{q}/tasks/{id}', () => {
  it('shows the unique lock with its TTL, its holder and whether this task owns it', async () => {
    const key = k.uniqueKey('q', 'u', json({ n: 1 }));
    const owner = newTaskMessage({ type: 'u', queue: 'q', payload: json({ n: 1 }), uniqueKey: key });
    const other = newTaskMessage({ type: 'u', queue: 'q', payload: json({ n: 1 }), uniqueKey: key });
    await seedPending(redis, owner);
    await seedZset(redis, 'archived', other, 1_700_000_000);
    await seedLock(redis, key, owner.id, 3600);

    const mine = await callRoute(routes.task.GET, '/', { qname: 'q', taskId: owner.id });
    expect(mine.status).toBe(200);
    expect(mine.body.uniqueLock).toMatchObject({ key, holderId: owner.id, ownedByThisTask: true });
    expect(mine.body.uniqueLock.ttlSeconds).toBeGreaterThan(3598);
    expect(mine.body.uniqueLock.ttlSeconds).toBeLessThanOrEqual(3600);

    const theirs = await callRoute(routes.task.GET, '/', { qname: 'q', taskId: other.id });
    expect(theirs.body.uniqueLock).toMatchObject({ holderId: owner.id, ownedByThisTask: false });

    await redis.del(key);
    const gone = await callRoute(routes.task.GET, '/', { qname: 'q', taskId: owner.id });
    expect(gone.body.uniqueLock).toEqual({ key, ttlSeconds: null, holderId: null, ownedByThisTask: false });

    await seedLock(redis, key, owner.id);
    const forever = await callRoute(routes.task.GET, '/', { qname: 'q', taskId: owner.id });
    expect(forever.body.uniqueLock.ttlSeconds).toBe(-1);
  });

  it('reads the lock a grouped unique task names only in its msg', async () => {
    const key = k.uniqueKey('q', 'g', null);
    const m = newTaskMessage({ type: 'g', queue: 'q', groupKey: 'grp', uniqueKey: key });
    await seedAggregating(redis, m);
    await seedLock(redis, key, m.id, 100);
    const page = await list('q', 'state=aggregating&group=grp');
    expect(page.body.tasks[0].uniqueLock).toMatchObject({ key, holderId: m.id, ownedByThisTask: true });
  });

  it('sends binary payloads as base64, cuts list payloads at 4 KiB, and serves raw bytes', async () => {
    const bin = newTaskMessage({ type: 'b', queue: 'q', payload: new Uint8Array([0xff, 0xfe, 0x00, 0x01]) });
    const big = newTaskMessage({ type: 'big', queue: 'q', payload: Buffer.alloc(10_000, 'x') });
    await seedPending(redis, bin);
    await seedPending(redis, big);
    const rows = (await list('q', 'state=pending')).body.tasks;
    expect(rows[0]).toMatchObject({ payload: '//4AAQ==', payloadEncoding: 'base64', payloadSize: 4, payloadTruncated: false });
    expect(rows[1]).toMatchObject({ payloadEncoding: 'utf8', payloadSize: 10_000, payloadTruncated: true });
    expect(rows[1].payload).toHaveLength(4096);
    const detail = await callRoute(routes.task.GET, '/', { qname: 'q', taskId: big.id });
    expect(detail.body).toMatchObject({ payloadTruncated: false, payloadSize: 10_000 });
    const raw = await callRoute(routes.payload.GET, '/', { qname: 'q', taskId: bin.id });
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect([...raw.bytes]).toEqual([0xff, 0xfe, 0x00, 0x01]);
  });

  it('gives a completed task its result and the time asynq deletes it (completed_at + retention)', async () => {
    const completedAt = 1_900_000_000;
    const done = newTaskMessage({ type: 't', queue: 'q', completedAt, retention: 5400 });
    // As MarkAsComplete writes it: the result beside the msg, scored by completed_at + retention.
    await seedZset(redis, 'completed', done, completedAt + 5400);
    await redis.hset(k.taskKey('q', done.id), 'result', '{"ok":true}');
    const later = newTaskMessage({ type: 't', queue: 'q', retention: 5400 });
    await seedZset(redis, 'scheduled', later, completedAt);

    const listed = (await list('q', 'state=completed')).body.tasks[0];
    expect(listed).toMatchObject({ id: done.id, result: '{"ok":true}', resultEncoding: 'utf8', expiresAt: '2030-03-17T19:16:40Z' });
    const detail = await callRoute(routes.task.GET, '/', { qname: 'q', taskId: done.id });
    expect(detail.body).toMatchObject({ completedAt: '2030-03-17T17:46:40Z', retentionSeconds: 5400, expiresAt: '2030-03-17T19:16:40Z' });
    expect((await callRoute(routes.task.GET, '/', { qname: 'q', taskId: later.id })).body.expiresAt).toBeNull();
  });

  it('answers 404 task_not_found with asynq’s message', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const { status, body } = await callRoute(routes.task.GET, '/', { qname: 'q', taskId: 'nope' });
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: 'task_not_found', message: 'cannot find task with id=nope in queue "q"' });
  });
});

describe('GET /api/queues/{q}/history', () => {
  it('returns the daily counters newest first and checks days', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const yesterday = new Date(Date.now() - 86_400_000);
    await redis.set(k.processedKey('q', yesterday), 5);
    await redis.set(k.failedKey('q', yesterday), 1);
    const { body } = await callRoute(routes.history.GET, '/api/queues/q/history?days=2', { qname: 'q' });
    expect(body.days).toEqual([
      { date: k.utcDate(new Date()), processed: 0, failed: 0 },
      { date: k.utcDate(yesterday), processed: 5, failed: 1 },
    ]);
    const bad = await callRoute(routes.history.GET, '/api/queues/q/history?days=91', { qname: 'q' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('days');
  });
});
