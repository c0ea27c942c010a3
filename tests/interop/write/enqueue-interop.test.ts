/**
 * Enqueue interop with the real asynq client (the release the run judges by), both directions:
 *  - Unique(ttl) and TaskID: whichever side enqueues first, the other side is refused with its
 *    own error (ErrDuplicateTask / ErrTaskIDConflict ↔ 409 duplicate_task / task_id_conflict);
 *  - the unique lock after a Go server processed our task: gone after success, kept (until its
 *    TTL ends) after a failure into the archive;
 *  - the same enqueue through Go's client and through our route writes the same Redis, byte for
 *    byte (msg included), for every option (headers from v0.26.0: older clients have none).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as k from '@/lib/asynq/keys';
import { openTestRedis } from '../../support/test-redis';
import { ASYNQ } from '../go-harness';
import { asynqGo, dumpRedis, goEnqueue, goProcess, type GoEnqueueRequest } from './go';
import { diffDumps, stringValue, withoutKeys } from './redis-diff';
import { openApi, type Api } from './routes';

/** Our routes' database; the Go client also writes here in the both-directions tests. */
const DB = 23;
/** Go's own database for the byte-for-byte comparison of the same enqueue. */
const DB_GO = 28;

asynqGo.requireGo('enqueue-interop.test.ts');

const b64 = (s: string | Buffer) => (typeof s === 'string' ? Buffer.from(s) : s).toString('base64');

describe.skipIf(asynqGo.noGo)(`enqueue interop with asynq ${ASYNQ.version} (Unique, TaskID, every option)`, () => {
  let api: Api;
  let redis: Redis;
  let goRedis: Redis;

  beforeAll(async () => {
    await asynqGo.bin();
    redis = await openTestRedis(DB);
    goRedis = await openTestRedis(DB_GO);
    api = await openApi(DB);
  });

  beforeEach(async () => {
    await redis.flushdb();
    await goRedis.flushdb();
  });

  afterAll(() => {
    redis?.disconnect();
    goRedis?.disconnect();
    api?.serverRedis().disconnect();
  });

  describe('Unique: one lock for queue + type + payload, whoever takes it first', () => {
    it('our Unique task first: the Go client gets ErrDuplicateTask', async () => {
      const ours = await api.enqueue('uq', { type: 'ok:u', payload: 'same', options: { uniqueTtlSeconds: 120 } });
      expect(ours.status, JSON.stringify(ours.body)).toBe(201);
      const go = await goEnqueue(DB, { queue: 'uq', type: 'ok:u', payloadBase64: b64('same'), options: { uniqueSeconds: 120 } });
      expect(go, 'Go client after our unique enqueue').toEqual({ ok: false, error: 'task already exists', duplicate: true, idConflict: false });
      expect(await redis.get(k.uniqueKey('uq', 'ok:u', Buffer.from('same'))), 'the lock holds our task ID').toBe(ours.body.id);
      expect(await redis.llen(k.pendingKey('uq')), 'only our task is pending').toBe(1);
    });

    it('Go Unique task first: our POST gets 409 duplicate_task naming the Go task as the holder', async () => {
      const go = await goEnqueue(DB, { queue: 'uq', type: 'ok:u', payloadBase64: b64('same'), options: { uniqueSeconds: 120 } });
      expect(go.ok, JSON.stringify(go)).toBe(true);
      const goId = go.ok ? go.task.id : '';
      const ours = await api.enqueue('uq', { type: 'ok:u', payload: 'same', options: { uniqueTtlSeconds: 120 } });
      expect(ours.status, JSON.stringify(ours.body)).toBe(409);
      expect(ours.body.error, 'our duplicate_task answer').toMatchObject({
        code: 'duplicate_task',
        message: 'task already exists',
        lock: { key: k.uniqueKey('uq', 'ok:u', Buffer.from('same')), holderId: goId },
      });
      expect(ours.body.error.lock.ttlSeconds, 'remaining lock TTL').toBeGreaterThan(100);
      expect(await redis.llen(k.pendingKey('uq')), 'only the Go task is pending').toBe(1);
    });

    it('a different payload, type or queue is not a duplicate on either side', async () => {
      await api.enqueue('uq', { type: 'ok:u', payload: 'one', options: { uniqueTtlSeconds: 60 } });
      for (const req of [
        { queue: 'uq', type: 'ok:u', payloadBase64: b64('two') },
        { queue: 'uq', type: 'ok:v', payloadBase64: b64('one') },
        { queue: 'other', type: 'ok:u', payloadBase64: b64('one') },
      ]) {
        const go = await goEnqueue(DB, { ...req, options: { uniqueSeconds: 60 } });
        expect(go.ok, `Go enqueue of ${JSON.stringify(req)}: ${JSON.stringify(go)}`).toBe(true);
      }
    });

    it('nil and empty payloads are different locks, the same way on both sides', async () => {
      const oursNil = await api.enqueue('uq', { type: 'ok:n', options: { uniqueTtlSeconds: 60 } });
      expect(oursNil.status, JSON.stringify(oursNil.body)).toBe(201);
      expect(await redis.get(`${k.uniqueKeyPrefix('uq')}ok:n:`), 'nil payload: lock key ends with an empty checksum').toBe(oursNil.body.id);
      const goEmpty = await goEnqueue(DB, { queue: 'uq', type: 'ok:n', payloadBase64: '', options: { uniqueSeconds: 60 } });
      expect(goEmpty.ok, `Go, empty payload after our nil payload: ${JSON.stringify(goEmpty)}`).toBe(true);
      const goNil = await goEnqueue(DB, { queue: 'uq', type: 'ok:n', payloadBase64: null, options: { uniqueSeconds: 60 } });
      expect(goNil, 'Go, nil payload after our nil payload').toMatchObject({ ok: false, duplicate: true });
      const oursEmpty = await api.enqueue('uq', { type: 'ok:n', payload: '', options: { uniqueTtlSeconds: 60 } });
      expect(oursEmpty.body.error?.code, 'ours, empty payload after Go\'s empty payload').toBe('duplicate_task');
      expect(await redis.get(`${k.uniqueKeyPrefix('uq')}ok:n:d41d8cd98f00b204e9800998ecf8427e`), 'empty payload lock').toBe(goEmpty.ok ? goEmpty.task.id : '');
    });

    it('scheduled and grouped unique tasks are duplicates both ways too', async () => {
      const cases: { name: string; ours: Record<string, unknown>; go: GoEnqueueRequest['options'] }[] = [
        { name: 'scheduled (ProcessIn)', ours: { uniqueTtlSeconds: 60, processInSeconds: 600 }, go: { uniqueSeconds: 60, processInSeconds: 600 } },
        { name: 'grouped', ours: { uniqueTtlSeconds: 60, group: 'g' }, go: { uniqueSeconds: 60, group: 'g' } },
      ];
      for (const c of cases) {
        await redis.flushdb();
        const ours = await api.enqueue('uq', { type: 'ok:s', payload: 'x', options: c.ours });
        expect(ours.status, `${c.name}: ours first ${JSON.stringify(ours.body)}`).toBe(201);
        const go = await goEnqueue(DB, { queue: 'uq', type: 'ok:s', payloadBase64: b64('x'), options: c.go });
        expect(go, `${c.name}: Go after ours`).toMatchObject({ ok: false, duplicate: true });

        await redis.flushdb();
        const go2 = await goEnqueue(DB, { queue: 'uq', type: 'ok:s', payloadBase64: b64('x'), options: c.go });
        expect(go2.ok, `${c.name}: Go first ${JSON.stringify(go2)}`).toBe(true);
        const ours2 = await api.enqueue('uq', { type: 'ok:s', payload: 'x', options: c.ours });
        expect(ours2.body.error, `${c.name}: ours after Go`).toMatchObject({ code: 'duplicate_task', lock: { holderId: go2.ok ? go2.task.id : '' } });
      }
    });
  });

  describe('TaskID: one task per ID and queue, whoever takes it first', () => {
    it('our TaskID first: the Go client gets ErrTaskIDConflict', async () => {
      const ours = await api.enqueue('tq', { type: 'ok:t', payload: 'a', options: { taskId: 'fixed-id' } });
      expect(ours.status, JSON.stringify(ours.body)).toBe(201);
      const go = await goEnqueue(DB, { queue: 'tq', type: 'ok:other', payloadBase64: b64('b'), options: { taskId: 'fixed-id' } });
      expect(go, 'Go client after our TaskID enqueue').toEqual({ ok: false, error: 'task ID conflicts with another task', duplicate: false, idConflict: true });
    });

    it('Go TaskID first: our POST gets 409 task_id_conflict describing the existing task', async () => {
      const go = await goEnqueue(DB, { queue: 'tq', type: 'ok:t', payloadBase64: b64('a'), options: { taskId: 'fixed-id', processInSeconds: 600 } });
      expect(go.ok, JSON.stringify(go)).toBe(true);
      const ours = await api.enqueue('tq', { type: 'ok:other', payload: 'b', options: { taskId: 'fixed-id' } });
      expect(ours.status, JSON.stringify(ours.body)).toBe(409);
      expect(ours.body.error, 'our task_id_conflict answer').toEqual({
        code: 'task_id_conflict',
        message: 'task ID conflicts with another task',
        existing: { id: 'fixed-id', queue: 'tq', state: 'scheduled', archived: null },
      });
    });

    it('the same ID in another queue is no conflict', async () => {
      await api.enqueue('tq', { type: 'ok:t', payload: 'a', options: { taskId: 'fixed-id' } });
      const go = await goEnqueue(DB, { queue: 'tq2', type: 'ok:t', payloadBase64: b64('a'), options: { taskId: 'fixed-id' } });
      expect(go.ok, JSON.stringify(go)).toBe(true);
    });
  });

  describe('invalid options: asynq\'s own rule text on both sides, nothing written', () => {
    const cases: { name: string; queue?: string; go: GoEnqueueRequest; ours: Record<string, unknown>; text: string }[] = [
      { name: 'blank type', go: { type: '  ' }, ours: { type: '  ' }, text: 'task typename cannot be empty' },
      { name: 'blank task ID', go: { type: 'ok:a', options: { taskId: ' ' } }, ours: { type: 'ok:a', options: { taskId: ' ' } }, text: 'task ID cannot be empty' },
      { name: 'blank group', go: { type: 'ok:a', options: { group: ' ' } }, ours: { type: 'ok:a', options: { group: ' ' } }, text: 'group key cannot be empty' },
      { name: 'Unique TTL 0', go: { type: 'ok:a', options: { uniqueSeconds: 0 } }, ours: { type: 'ok:a', options: { uniqueTtlSeconds: 0 } }, text: 'Unique TTL cannot be less than 1s' },
      { name: 'Unique TTL 0.5 s (ours only: Go\'s tool takes whole seconds)', go: { type: 'ok:a', options: { uniqueSeconds: 0 } }, ours: { type: 'ok:a', options: { uniqueTtlSeconds: 0.5 } }, text: 'Unique TTL cannot be less than 1s' },
      { name: 'blank queue name', queue: ' ', go: { type: 'ok:a' }, ours: { type: 'ok:a' }, text: 'queue name must contain one or more characters' },
    ];
    it.each(cases.filter((c) => ASYNQ.headers || !c.go.headers).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const queue = c.queue ?? 'vq';
      const go = await goEnqueue(DB, { ...c.go, queue });
      const ours = await api.enqueue(queue, c.ours);
      expect(go, "Go client's error").toMatchObject({ ok: false, error: c.text });
      expect(ours.status, JSON.stringify(ours.body)).toBe(400);
      expect(ours.body.error.code, 'our error code').toBe('invalid_argument');
      expect(ours.body.error.message, 'our message vs asynq\'s text').toBe(c.text);
      expect(await redis.dbsize(), 'keys written by the refused enqueues').toBe(0);
    });

    // Stricter than asynq on writes, on purpose (lib/asynq/queue-name.ts): asynq accepts any
    // non-blank name, but a brace breaks the asynq:{<queue>}: key layout.
    it.each(['a:{b} c', 'default}:t:X'])('queue name %j: Go accepts it, we refuse it (400, the rule) and write nothing', async (queue) => {
      const go = await goEnqueue(DB, { queue, type: 'ok:a' });
      expect(go.ok, JSON.stringify(go)).toBe(true);
      await redis.flushdb();
      const ours = await api.enqueue(queue, { type: 'ok:a' });
      expect(ours.status, JSON.stringify(ours.body)).toBe(400);
      expect(ours.body.error).toMatchObject({ code: 'invalid_argument', field: 'qname' });
      expect(ours.body.error.message).toContain('must not contain "{" or "}"');
      expect(await redis.dbsize(), 'keys written by the refused enqueue').toBe(0);
    });
  });

  describe('the unique lock after a Go server processed our task', () => {
    it('success releases it; failure into the archive keeps it until its TTL ends', async () => {
      const okTask = await api.enqueue('lk', { type: 'ok:u', payload: 'p', options: { uniqueTtlSeconds: 300 } });
      const failTask = await api.enqueue('lk', { type: 'fail:u', payload: 'p', options: { uniqueTtlSeconds: 300, maxRetry: 0 } });
      const shortTask = await api.enqueue('lk', { type: 'fail:short', payload: 'p', options: { uniqueTtlSeconds: 7, maxRetry: 0 } });
      for (const r of [okTask, failTask, shortTask]) expect(r.status, JSON.stringify(r.body)).toBe(201);
      const lock = (type: string) => k.uniqueKey('lk', type, Buffer.from('p'));

      const calls = await goProcess(DB, { queues: ['lk'], seconds: 2.5 });
      expect(calls.map((c) => c.type).sort(), 'the Go handler calls').toEqual(['fail:short', 'fail:u', 'ok:u']);

      expect(await redis.exists(k.taskKey('lk', okTask.body.id)), 'the succeeded task (no retention) is deleted').toBe(0);
      expect(await redis.exists(lock('ok:u')), 'the succeeded task\'s lock is released').toBe(0);

      const archived = await api.getTask('lk', failTask.body.id);
      expect(archived.body, 'the failed task').toMatchObject({ state: 'archived', lastError: 'fail: fail:u' });
      expect(await redis.get(lock('fail:u')), 'the archived task still holds its lock').toBe(failTask.body.id);
      const ttl = await redis.ttl(lock('fail:u'));
      expect(ttl > 290 && ttl <= 300, `the archived task's lock keeps its TTL (${ttl}s left)`).toBe(true);
      expect(archived.body.uniqueLock, 'our API shows the lock as owned by the archived task').toMatchObject({ holderId: failTask.body.id, ownedByThisTask: true });

      const go = await goEnqueue(DB, { queue: 'lk', type: 'fail:u', payloadBase64: b64('p'), options: { uniqueSeconds: 60 } });
      expect(go, 'Go client while the archived task holds the lock').toMatchObject({ ok: false, duplicate: true });

      // The 7 s lock: still there after processing, gone once its TTL ran out.
      expect(await redis.get(lock('fail:short')), 'the short lock right after processing').toBe(shortTask.body.id);
      const pttl = await redis.pttl(lock('fail:short'));
      await new Promise((r) => setTimeout(r, pttl + 200));
      expect(await redis.exists(lock('fail:short')), 'the short lock after its TTL').toBe(0);
      const again = await goEnqueue(DB, { queue: 'lk', type: 'fail:short', payloadBase64: b64('p'), options: { uniqueSeconds: 60 } });
      expect(again.ok, `Go client after the lock expired: ${JSON.stringify(again)}`).toBe(true);
    });
  });

  describe('the same enqueue through Go\'s client and through our route writes the same Redis', () => {
    const at = Math.floor(Date.now() / 1000) + 3600;
    const iso = (sec: number) => new Date(sec * 1000).toISOString();
    const binary = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x80, 0x0a]);
    const cases: { name: string; queue?: string; go: GoEnqueueRequest; ours: Record<string, unknown> }[] = [
      { name: 'defaults', go: { type: 'ok:a', payloadBase64: b64('hello') }, ours: { type: 'ok:a', payload: 'hello' } },
      { name: 'nil payload', go: { type: 'ok:a', payloadBase64: null }, ours: { type: 'ok:a' } },
      { name: 'empty payload', go: { type: 'ok:a', payloadBase64: '' }, ours: { type: 'ok:a', payload: '' } },
      { name: 'binary payload', go: { type: 'ok:a', payloadBase64: b64(binary) }, ours: { type: 'ok:a', payload: b64(binary), payloadEncoding: 'base64' } },
      {
        name: 'MaxRetry, Timeout, Retention',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { maxRetry: 3, timeoutSeconds: 10, retentionSeconds: 3600 } },
        ours: { type: 'ok:a', payload: 'x', options: { maxRetry: 3, timeoutSeconds: 10, retentionSeconds: 3600 } },
      },
      {
        name: 'negative MaxRetry (clamped to 0)',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { maxRetry: -5 } },
        ours: { type: 'ok:a', payload: 'x', options: { maxRetry: -5 } },
      },
      {
        name: 'Deadline only (no default timeout)',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { deadlineUnix: at } },
        ours: { type: 'ok:a', payload: 'x', options: { deadline: iso(at) } },
      },
      {
        name: 'Timeout and Deadline',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { timeoutSeconds: 30, deadlineUnix: at } },
        ours: { type: 'ok:a', payload: 'x', options: { timeoutSeconds: 30, deadline: iso(at) } },
      },
      {
        name: 'ProcessAt (scheduled)',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { processAtUnix: at } },
        ours: { type: 'ok:a', payload: 'x', options: { processAt: iso(at) } },
      },
      {
        name: 'Unique',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { uniqueSeconds: 90 } },
        ours: { type: 'ok:a', payload: 'x', options: { uniqueTtlSeconds: 90 } },
      },
      {
        name: 'Unique and ProcessAt',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { uniqueSeconds: 90, processAtUnix: at } },
        ours: { type: 'ok:a', payload: 'x', options: { uniqueTtlSeconds: 90, processAt: iso(at) } },
      },
      { name: 'Group', go: { type: 'ok:a', payloadBase64: b64('x'), options: { group: 'g' } }, ours: { type: 'ok:a', payload: 'x', options: { group: 'g' } } },
      {
        name: 'Group and Unique',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { group: 'g', uniqueSeconds: 90 } },
        ours: { type: 'ok:a', payload: 'x', options: { group: 'g', uniqueTtlSeconds: 90 } },
      },
      {
        name: 'Group and ProcessAt (scheduled, no group field)',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { group: 'g', processAtUnix: at } },
        ours: { type: 'ok:a', payload: 'x', options: { group: 'g', processAt: iso(at) } },
      },
      {
        name: 'a header',
        go: { type: 'ok:a', payloadBase64: b64('x'), headers: { 'X-Trace': 'abc 123' } },
        ours: { type: 'ok:a', payload: 'x', options: { headers: { 'X-Trace': 'abc 123' } } },
      },
      {
        name: 'queue name with a colon, glob characters, non-ASCII and a space',
        queue: 'a:b* [c]? キュー',
        go: { type: 'ok:a', payloadBase64: b64('x'), options: { uniqueSeconds: 90 } },
        ours: { type: 'ok:a', payload: 'x', options: { uniqueTtlSeconds: 90 } },
      },
    ];

    it.each(cases.filter((c) => ASYNQ.headers || !c.go.headers).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const queue = c.queue ?? 'bq';
      const taskId = 'same-id';
      const fromSec = Math.floor(Date.now() / 1000);
      const go = await goEnqueue(DB_GO, { ...c.go, queue, options: { ...c.go.options, taskId } });
      const ours = await api.enqueue(queue, { ...c.ours, options: { ...(c.ours.options as object), taskId } });
      const window = { fromSec, toSec: Math.ceil(Date.now() / 1000) };
      expect(go.ok, `Go enqueue: ${JSON.stringify(go)}`).toBe(true);
      expect(ours.status, `our enqueue: ${JSON.stringify(ours.body)}`).toBe(201);
      const [goDump, ourDump] = await Promise.all([dumpRedis(DB_GO), dumpRedis(DB)]);
      expect(diffDumps(goDump, ourDump, window), `Redis after enqueue (${c.name}): asynq's client vs our route`).toEqual([]);
    });

    it('unique enqueue with a conflicting task ID: asynq keeps the lock it just took, we give it back (documented)', async () => {
      for (const db of [DB_GO, DB]) {
        const seed = await goEnqueue(db, { queue: 'bq', type: 'ok:first', payloadBase64: b64('1'), options: { taskId: 'taken' } });
        expect(seed.ok, JSON.stringify(seed)).toBe(true);
      }
      const fromSec = Math.floor(Date.now() / 1000) - 1;
      const go = await goEnqueue(DB_GO, { queue: 'bq', type: 'ok:second', payloadBase64: b64('2'), options: { taskId: 'taken', uniqueSeconds: 90 } });
      const ours = await api.enqueue('bq', { type: 'ok:second', payload: '2', options: { taskId: 'taken', uniqueTtlSeconds: 90 } });
      expect(go, 'asynq: ID conflict').toMatchObject({ ok: false, idConflict: true });
      expect(ours.body.error?.code, 'ours: ID conflict').toBe('task_id_conflict');
      const [goDump, ourDump] = await Promise.all([dumpRedis(DB_GO), dumpRedis(DB)]);
      const lock = k.uniqueKey('bq', 'ok:second', Buffer.from('2'));
      expect(stringValue(goDump, lock), 'asynq leaves the lock it took, naming the existing task').toBe('taken');
      expect(ourDump[lock], 'we give the lock back').toBeUndefined();
      expect(diffDumps(withoutKeys(goDump, [lock]), ourDump, { fromSec, toSec: Math.ceil(Date.now() / 1000) }), 'everything else').toEqual([]);
    });
  });
});
