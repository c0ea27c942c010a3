/**
 * asynq v0.26.0 and asynqlens on one Sentinel deployment (asynq.RedisFailoverClientOpt on the Go
 * side; ASYNQLENS_REDIS_SENTINELS and ASYNQLENS_REDIS_SENTINEL_MASTER on ours), through a planned
 * failover: what Go writes reads through our routes exactly as Go's Inspector reads it, before
 * and after the replica takes over; the console keeps running and finds every task on the new
 * master; and what our API enqueues after the failover is processed by a Go server.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskDto } from '@/lib/contract/tasks';
import { waitFor } from '../integration/faults/helpers';
import { callRoute, type Handler } from '../support/call-route';
import { consoleRoutes, type ConsoleRoutes } from '../support/console-routes';
import { within } from '../support/within';
import { MASTER_NAME, startSentinelSetup, type SentinelSetup } from '../support/redis-sentinel';
import { LIST_STATES, type GoDump, type GoTask } from './go-dump';
import { goHarness } from './go-harness';

const asynqGo = goHarness('sentinel');
asynqGo.requireGo('Redis Sentinel interop');

/** A database other than 0, so both sides are seen to honour the db through the sentinels. */
const DB = 3;
const Q = 'orders';
/** The seeded labels a Go server hands to a handler (the rest wait an hour or sit in a group). */
const RUNNABLE = ['pending', 'failing', 'retrying', 'kept'] as const;

type Seeded = Record<string, string>;
type Counts = Record<'pending' | 'active' | 'scheduled' | 'retry' | 'archived' | 'completed' | 'aggregating', number>;

const JSON_HEADERS = { 'content-type': 'application/json' };
const sorted = (ids: Iterable<string>) => [...ids].sort();
const base64 = (text: string | null, encoding: string | null) =>
  text === null ? '' : encoding === 'base64' ? text : Buffer.from(text, 'utf8').toString('base64');
/** ISO time → Unix seconds, null → 0 (Go's zero time). */
const unix = (iso: string | null) => (iso === null ? 0 : Math.floor(Date.parse(iso) / 1000));

/**
 * The fields both inspectors report, in Go's units. Both report "now" as a pending task's next
 * process time, read moments apart, so that one is left out.
 */
function fromGo(t: GoTask) {
  return {
    id: t.id, queue: t.queue, type: t.type, state: t.state, payload: t.payloadBase64 ?? '', headers: t.headers,
    maxRetry: t.maxRetry, retried: t.retried, lastError: t.lastError, lastFailedAt: t.lastFailedAt,
    timeoutSeconds: t.timeoutSeconds, deadline: t.deadline, group: t.group,
    nextProcessAt: t.state === 'pending' ? 'now' : t.nextProcessAt,
    completedAt: t.completedAt, retentionSeconds: t.retentionSeconds, result: t.resultBase64 ?? '', isOrphaned: t.isOrphaned,
  };
}

function fromOurs(t: TaskDto) {
  return {
    id: t.id, queue: t.queue, type: t.type, state: t.state, payload: base64(t.payload, t.payloadEncoding), headers: t.headers,
    maxRetry: t.maxRetry, retried: t.retried, lastError: t.lastError, lastFailedAt: unix(t.lastFailedAt),
    timeoutSeconds: t.timeoutSeconds, deadline: unix(t.deadline), group: t.group ?? '',
    nextProcessAt: t.state === 'pending' ? 'now' : unix(t.nextProcessAt),
    completedAt: unix(t.completedAt), retentionSeconds: t.retentionSeconds, result: base64(t.result, t.resultEncoding), isOrphaned: t.isOrphaned,
  };
}

describe.skipIf(asynqGo.noGo)('asynq v0.26.0 and asynqlens on one Sentinel deployment, through a failover', () => {
  let setup: SentinelSetup;
  let r: ConsoleRoutes;
  const rounds: Seeded[] = [];

  /** One interop-bin run through the sentinels (a fresh Go process each time). */
  const go = async (cmd: string, extra: string[] = []) => {
    const args = ['--sentinels', `127.0.0.1:${setup.sentinelPort}`, '--master', MASTER_NAME, '--db', String(DB), '--queues', Q, ...extra];
    // sentinel-process gives up by itself at 20 s.
    return asynqGo.run(cmd, args, { timeoutMs: 30_000 });
  };
  const goSeed = async (round: string) => {
    const ids = (JSON.parse(await go('sentinel-seed', ['--round', round])) as Record<string, Seeded>)[Q]!;
    rounds.push(ids);
    return ids;
  };
  const goDump = async () => JSON.parse(await go('sentinel-dump')) as GoDump;
  /** Runs a Go server until its handlers ran `n` times and the queue is idle; the handled task IDs, one per run. */
  const goProcess = async (n: number) =>
    (await go('sentinel-process', ['--invocations', String(n)]))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; type: string });

  const get = async (h: Handler, path: string, params: Record<string, string>) => {
    const res = await within(`GET ${path}`, callRoute(h, path, params));
    expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const ourList = async (state: string, group?: string): Promise<TaskDto[]> =>
    (await get(r.tasks.GET, `/?state=${state}&size=100${group ? `&group=${group}` : ''}`, { qname: Q })).tasks as TaskDto[];
  const enqueue = async (body: unknown) => {
    const res = await callRoute(r.tasks.POST, '/', { qname: Q }, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };

  /** Every task ID our routes list, over every state and group (duplicates kept, so they show). */
  async function ourIds(): Promise<string[]> {
    const ids: string[] = [];
    for (const state of LIST_STATES) ids.push(...(await ourList(state)).map((t) => t.id));
    const groups = (await get(r.groups.GET, '/', { qname: Q })).groups as { group: string }[];
    for (const { group } of groups) ids.push(...(await ourList('aggregating', group)).map((t) => t.id));
    return sorted(ids);
  }

  /** Go's counts for the queue must be `want`; ours must equal Go's, list by list and task by task. */
  async function expectSameAsGo(dump: GoDump, want: Counts): Promise<void> {
    const info = dump.queueInfo[Q]!;
    expect({ pending: info.pending, active: info.active, scheduled: info.scheduled, retry: info.retry, archived: info.archived, completed: info.completed, aggregating: info.aggregating }).toEqual(want);
    const ours = await get(r.queue.GET, '/', { qname: Q });
    const fields = ['size', 'paused', 'pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating', 'groups', 'processed', 'failed', 'processedTotal', 'failedTotal'] as const;
    expect(Object.fromEntries(fields.map((f) => [f, ours[f]]))).toEqual(Object.fromEntries(fields.map((f) => [f, info[f]])));
    for (const state of LIST_STATES) {
      expect([state, (await ourList(state)).map((t) => t.id)]).toEqual([state, dump.tasks[Q]![state].map((t) => t.id)]);
    }
    for (const [group, tasks] of Object.entries(dump.tasks[Q]!.aggregating)) {
      expect([group, (await ourList('aggregating', group)).map((t) => t.id)]).toEqual([group, tasks.map((t) => t.id)]);
    }
    expect((await get(r.groups.GET, '/', { qname: Q })).groups).toEqual(dump.groups[Q]!.map((g) => ({ group: g.group, size: g.size })));
    for (const [id, want] of Object.entries(dump.taskInfo[Q]!)) {
      expect(fromOurs((await get(r.task.GET, '/', { qname: Q, taskId: id })) as TaskDto)).toEqual(fromGo(want));
    }
  }

  beforeAll(async () => {
    [setup] = await Promise.all([startSentinelSetup(), asynqGo.bin()]);
    // As an operator configures it: the URL's host is ignored in Sentinel mode; it gives the db.
    process.env.REDIS_URL = `redis://ignored.invalid:6379/${DB}`;
    process.env.ASYNQLENS_REDIS_SENTINELS = `127.0.0.1:${setup.sentinelPort}`;
    process.env.ASYNQLENS_REDIS_SENTINEL_MASTER = MASTER_NAME;
    r = await consoleRoutes();
  }, 120_000);

  afterAll(async () => {
    const { getRedis } = await import('@/lib/server/redis/client');
    getRedis().disconnect();
    await setup?.stop();
  });

  it('reads what Go enqueued and processed through the sentinels exactly as Go\'s Inspector does', async () => {
    // A first round is processed, so the retry, archived and completed states hold Go's own
    // outcomes; a second round stays pending, scheduled and grouped.
    const first = await goSeed('1');
    const handled = await goProcess(RUNNABLE.length + 1);
    expect(sorted(handled.filter((h) => h.type !== 'aggregated').map((h) => h.id))).toEqual(sorted(RUNNABLE.map((l) => first[l]!)));
    await goSeed('2');

    const dump = await goDump();
    await expectSameAsGo(dump, { pending: 4, active: 0, scheduled: 4, retry: 1, archived: 1, completed: 1, aggregating: 1 });
    expect([first.failing, first.retrying, first.kept].map((id) => dump.taskInfo[Q]![id!]!.state)).toEqual(['archived', 'retry', 'completed']);
    expect((await callRoute(r.task.GET, '/', { qname: Q, taskId: first.pending! })).status).toBe(404);
    const unique = (await get(r.task.GET, '/', { qname: Q, taskId: first.unique! })) as TaskDto;
    expect(unique.uniqueLock).toMatchObject({ holderId: first.unique, ownedByThisTask: true });
  });

  it('follows a planned SENTINEL FAILOVER without a restart: no task lost or duplicated, and a Go server processes what our API enqueued', async () => {
    const before = await ourIds();
    expect(before).toHaveLength(12);
    const oldMaster = await setup.masterAddress();
    const target = `127.0.0.1:${setup.replica.port}`;
    expect(oldMaster).not.toBe(target);
    // A failover does not wait for the replica to catch up: whatever it has not received yet
    // would be lost by Redis itself, whichever client wrote it.
    const master = new Redis(`redis://${oldMaster}`, { maxRetriesPerRequest: 1 });
    expect(await master.call('WAIT', '1', '5000')).toBe(1);
    master.disconnect();

    await setup.sentinel.call('SENTINEL', 'FAILOVER', MASTER_NAME);
    // The sentinel answers GET-MASTER-ADDR-BY-NAME with the replica some tens of ms before it
    // publishes +switch-master, the event connected clients (ours, go-redis) reconnect on; the
    // old master takes writes until it is demoted seconds later. The failover is over once the
    // sentinel's own record of the master has moved and no longer says failover_in_progress.
    const switchMs = await waitFor(`the sentinel to switch ${MASTER_NAME} to ${target}`, async () => {
      const fields = (await setup.sentinel.call('SENTINEL', 'MASTER', MASTER_NAME)) as string[];
      const master = Object.fromEntries(fields.flatMap((v, i) => (i % 2 === 0 ? [[v, fields[i + 1]]] : [])));
      return `${master.ip}:${master.port}` === target && !String(master.flags).includes('failover');
    }, 20_000);

    const third = await goSeed('3');
    // Our client reconnects through the sentinel on +switch-master; a request during the
    // reconnect is refused at once (503) rather than queued, so the console is polled as a
    // browser would.
    const servingMs = await waitFor('the console to answer again', async () => (await callRoute(r.queue.GET, '/', { qname: Q })).status === 200, 10_000);
    console.info(`[sentinel-interop] switched ${switchMs} ms after SENTINEL FAILOVER; the console answered ${servingMs} ms after Go's next enqueue`);
    const ok = await enqueue({ type: 'result:ts', payload: 'from-ts', options: { retentionSeconds: 600 } });
    const fail = await enqueue({ type: 'fail:ts', payload: 'x', options: { maxRetry: 0 } });
    const union = sorted([...before, ...Object.values(third), ok, fail]);
    expect(new Set(union).size).toBe(before.length + 9);
    expect(await ourIds()).toEqual(union);

    // Our writes are on the promoted server, in the configured db.
    const promoted = new Redis(`redis://${target}/${DB}`, { maxRetriesPerRequest: 1 });
    expect(await promoted.exists(`asynq:{${Q}}:t:${ok}`, `asynq:{${Q}}:t:${fail}`, `asynq:{${Q}}:t:${third.pending}`)).toBe(3);
    promoted.disconnect();

    const afterFailover = await goDump();
    expect(sorted(Object.keys(afterFailover.taskInfo[Q]!))).toEqual(union);
    await expectSameAsGo(afterFailover, { pending: 10, active: 0, scheduled: 6, retry: 1, archived: 1, completed: 1, aggregating: 2 });

    // Rounds 2 and 3 and ours run once each; the two grouped tasks are aggregated into one.
    const runnable = [...[rounds[1]!, third].flatMap((s) => RUNNABLE.map((l) => s[l]!)), ok, fail];
    const handled = await goProcess(runnable.length + 1);
    expect(sorted(handled.filter((h) => h.type !== 'aggregated').map((h) => h.id))).toEqual(sorted(runnable));
    expect((await get(r.task.GET, '/', { qname: Q, taskId: ok })) as TaskDto).toMatchObject({ state: 'completed', result: 'done:from-ts', retentionSeconds: 600 });
    expect((await get(r.task.GET, '/', { qname: Q, taskId: fail })) as TaskDto).toMatchObject({ state: 'archived', lastError: 'fail: fail:ts' });
    await expectSameAsGo(await goDump(), { pending: 0, active: 0, scheduled: 6, retry: 3, archived: 4, completed: 4, aggregating: 0 });
  }, 60_000);
});
