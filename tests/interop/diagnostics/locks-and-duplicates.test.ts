/**
 * Live interop for issue 6: the real asynq v0.26.0 (tests/go `diag-scenario`) makes the locks
 * and duplicates, and our API must recognise each situation: success releases the lock, a
 * failure into the archive keeps it (and Go's own re-enqueue is refused), a short lock on a
 * retrying task, a lock leaked by asynq's DeleteAllPendingTasks, a lock without expiry,
 * exact duplicates from plain enqueues and near duplicates that differ only in a timestamp or
 * a nonce. Releasing and "keep one, delete the rest" are then checked from Go's side.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { callRoute, type JsonBody } from '../../support/call-route';
import { consoleRoutes, type ConsoleRoutes } from '../../support/console-routes';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { goHarness, redisArgs } from '../go-harness';

/** An API time as findings write it: `2026-11-30 03:10:16 UTC`. */
const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

const DB = 55;
const LOCK_TTL = 60;

interface DiagResult {
  released: string;
  archived: string;
  retrying: string;
  pending: string;
  reenqueueRefused: boolean;
  exact: string[];
  nearTimestamp: string[];
  nearNonce: string[];
  single: string;
}

const asynqGo = goHarness('diag');
asynqGo.requireGo('diagnostics interop');

describe.skipIf(asynqGo.noGo)('unique locks and duplicates made by Go asynq', () => {
  let redis: Redis;
  let go: DiagResult;
  let r: ConsoleRoutes;

  beforeAll(async () => {
    process.env.REDIS_URL = testRedisUrl(DB);
    redis = await openTestRedis(DB);
    go = await asynqGo.json<DiagResult>('diag-scenario', [...redisArgs(DB), '--retry-lock-ttl', `${LOCK_TTL}s`], { timeoutMs: 90_000 });
    r = await consoleRoutes();
  });
  afterAll(async () => {
    await redis?.quit();
  });

  const listLocks = async (q: string): Promise<JsonBody[]> => {
    const res = await callRoute(r.locks.GET, `/api/queues/${q}/locks`, { qname: q });
    expect(res.status).toBe(200);
    expect(res.body.cursor).toBeNull();
    return res.body.locks;
  };
  const byHolder = (locks: JsonBody[], id: string) => locks.find((l) => l.holderId === id);
  const release = (q: string, key: string, holder?: string) =>
    callRoute(r.locks.DELETE, `/api/queues/${q}/locks?${new URLSearchParams({ key, ...(holder ? { holder } : {}) })}`, { qname: q }, { method: 'DELETE' });
  const goEnqueue = async (queue: string, type: string, payload: string) =>
    asynqGo.json<JsonBody>('enqueue', redisArgs(DB), { stdin: { queue, type, payloadBase64: Buffer.from(payload).toString('base64'), options: { uniqueSeconds: 3600 } } });

  it('shows Go locks with the right holder and TTL, and none for the task that succeeded', async () => {
    const locks = await listLocks('locks');
    expect(locks.map((l) => l.holderId).sort()).toEqual([go.archived, go.retrying].sort());
    expect(byHolder(locks, go.released)).toBeUndefined();
    const archived = byHolder(locks, go.archived)!;
    expect(archived).toMatchObject({ taskType: 'fail:archived', holderState: 'archived', key: k.uniqueKey('locks', 'fail:archived', Buffer.from('{"n":2}')) });
    expect(archived.ttlSeconds).toBeGreaterThan(3500);
    expect(archived.ttlSeconds).toBeLessThanOrEqual(3600);
    const all = (await callRoute(r.allLocks.GET, '/api/locks')).body.locks;
    expect(all.map((l: JsonBody) => [l.queue, l.holderId, l.holderState]).sort()).toEqual(
      [['locks', go.archived, 'archived'], ['locks', go.retrying, 'retry'], ['locks-idle', go.pending, 'pending']].sort(),
    );
  });

  it('recognises the archived holder that makes asynq refuse the re-enqueue, and says until when', async () => {
    expect(go.reenqueueRefused).toBe(true);
    const lock = byHolder(await listLocks('locks'), go.archived)!;
    expect(lock.findings).toEqual([{ code: 'held_by_archived', message: expect.stringContaining(`refused until ${utc(lock.expiresAt)}`) }]);
  });

  it('recognises a lock that expires while its holder is still retrying', async () => {
    const lock = byHolder(await listLocks('locks'), go.retrying)!;
    expect(lock).toMatchObject({ holderState: 'retry', holderRetried: 1, holderMaxRetry: 5, holderNextAttemptAt: expect.any(String) });
    expect(lock.ttlSeconds).toBeLessThanOrEqual(LOCK_TTL);
    expect(lock.findings).toEqual([{ code: 'expires_before_retries_end', message: expect.stringContaining(`from ${utc(lock.expiresAt)}`) }]);
  });

  it('refuses to release the lock of a pending Go task, then releases the one asynq leaked', async () => {
    const [held] = await listLocks('locks-idle');
    expect(held).toMatchObject({ holderId: go.pending, holderState: 'pending', findings: [] });
    const refused = await release('locks-idle', held.key, go.pending);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'failed_precondition', holderState: 'pending' });
    // asynq's DeleteAllPendingTasks deletes the task but not its lock.
    expect(await asynqGo.json('inspect-op', redisArgs(DB), { stdin: { op: 'deleteAllPending', queue: 'locks-idle' } })).toEqual({ ok: true, count: 1 });
    const [leaked] = await listLocks('locks-idle');
    expect(leaked).toMatchObject({ key: held.key, holderState: null, findings: [{ code: 'orphaned' }] });
    expect((await goEnqueue('locks-idle', 'hold:pending', '{"n":4}')).duplicate).toBe(true);
    expect((await release('locks-idle', leaked.key, go.pending)).status).toBe(204);
    expect((await goEnqueue('locks-idle', 'hold:pending', '{"n":4}')).ok).toBe(true);
  });

  it('flags a lock with no expiry, and releasing an archived holder lets Go enqueue again', async () => {
    const lock = byHolder(await listLocks('locks'), go.archived)!;
    await redis.persist(lock.key);
    const persisted = byHolder(await listLocks('locks'), go.archived)!;
    expect(persisted).toMatchObject({ ttlSeconds: -1, expiresAt: null });
    expect(persisted.findings.map((f: JsonBody) => f.code)).toEqual(['held_by_archived', 'no_expiry']);
    expect(persisted.findings[0].message).toContain('until the lock is deleted');
    expect((await release('locks', lock.key, go.archived)).status).toBe(204);
    const again = await goEnqueue('locks', 'fail:archived', '{"n":2}');
    expect(again.ok).toBe(true);
    // The lock now has a new owner: a release judged on the old one must not delete it.
    const stale = await release('locks', lock.key, go.archived);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ holderId: again.task.id, expectedHolderId: go.archived });
    expect(await redis.get(lock.key)).toBe(again.task.id);
  });

  it('groups Go duplicates, names the varying field, and "keep one" leaves Go one of each', async () => {
    const scan = async () => {
      for (let i = 0; i < 100; i++) {
        const res = await callRoute(r.duplicates.GET, '/api/queues/dups/duplicates?states=pending', { qname: 'dups' });
        expect(res.status).toBe(200);
        if (res.body.complete) return res.body;
        await new Promise((ok) => setTimeout(ok, 20));
      }
      throw new Error('scan did not complete');
    };
    const report = await scan();
    expect(report).toMatchObject({ scanned: 9, total: 9, exactGroups: 1, nearGroups: 2 });
    const find = (type: string) => report.groups.find((g: JsonBody) => g.taskType === type);
    expect(find('email:send')).toMatchObject({ kind: 'exact', count: 3, taskIds: go.exact, varyingFields: [] });
    expect(find('report:build')).toMatchObject({ kind: 'near', count: 3, distinctPayloads: 3, taskIds: go.nearTimestamp, varyingFields: ['timestamp'] });
    expect(find('sync:run')).toMatchObject({ kind: 'near', count: 2, taskIds: go.nearNonce, varyingFields: ['nonce'] });

    const surplus = report.groups.flatMap((g: JsonBody) => g.taskIds.slice(1));
    const res = await callRoute(r.resolve.POST, '/api/queues/dups/duplicates/resolve', { qname: 'dups' }, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskIds: surplus }),
    });
    expect(res.body).toEqual({ deleted: 5, failed: [] });
    const dump = await asynqGo.json<{ tasks: Record<string, { pending: { id: string }[] }> }>('dump', redisArgs(DB));
    expect(dump.tasks.dups!.pending.map((t) => t.id).sort()).toEqual([go.exact[0], go.nearTimestamp[0], go.nearNonce[0], go.single].sort());
    expect(await scan()).toMatchObject({ scanned: 4, exactGroups: 0, nearGroups: 0, groups: [] });
  });
});
