/**
 * Live interop: the real asynq (tests/go; v0.26.0, or the release ASYNQLENS_ASYNQ names) builds
 * every situation on a Redis database, Go's Inspector dumps what it sees, and our HTTP API must
 * say the same thing about the same Redis — same tasks, same order, same fields, same stats,
 * servers and schedulers.
 *
 * Needs Go (or ASYNQLENS_GO_BIN): without it the suite is skipped loudly, and fails under CI.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueStatsDto } from '@/lib/contract/queues';
import type { SchedulerListDto, ServerListDto } from '@/lib/contract/servers';
import type { TaskDto, TaskListDto } from '@/lib/contract/tasks';
import { callRoute } from '../support/call-route';
import { consoleRoutes, type ConsoleRoutes } from '../support/console-routes';
import { openTestRedis, testRedisUrl } from '../support/test-redis';
import { LIST_STATES, type GoDump, type GoTask } from './go-dump';
import { ASYNQ, goHarness, redisArgs, type RunningScenario } from './go-harness';

const DB = 20;
/** Fed every second by the scheduler: only checked loosely. */
const CRON_QUEUE = 'cron';

const asynqGo = goHarness('live');
asynqGo.requireGo('live Go interop');

// ---------------------------------------------------------------------------------------------
// Comparison helpers: each returns human-readable differences, asserted empty at the end so one
// run shows every mismatch with its queue, state, task ID and field.

const b64 = (s: string | null): Buffer => Buffer.from(s ?? '', 'base64');

function ourBytes(text: string | null, encoding: string | null): Buffer {
  if (text === null) return Buffer.alloc(0);
  return encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
}

/** ISO time → Unix seconds, null → 0 (Go's zero time). NaN for anything unparsable. */
function seconds(iso: string | null): number {
  if (iso === null) return 0;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? NaN : Math.floor(ms / 1000);
}

const show = (v: unknown): string => (Buffer.isBuffer(v) ? `<${v.toString('hex')}>` : JSON.stringify(v));

const sortedEntries = (o: Record<string, string>): [string, string][] =>
  Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Every field of one task the issue lists (plus isOrphaned), ours vs Go's. */
function diffTask(ours: TaskDto, go: GoTask, where: string): string[] {
  const out: string[] = [];
  const eq = (field: string, o: unknown, g: unknown) => {
    const same = Buffer.isBuffer(o) && Buffer.isBuffer(g) ? o.equals(g) : JSON.stringify(o) === JSON.stringify(g);
    if (!same) out.push(`${where} ${field}: ours=${show(o)} go=${show(g)}`);
  };
  if (ours.problem !== null) out.push(`${where}: ours flags a problem: ${ours.problem}`);
  eq('id', ours.id, go.id);
  eq('type', ours.type, go.type);
  eq('queue', ours.queue, go.queue);
  eq('state', ours.state, go.state);
  const goPayload = b64(go.payloadBase64);
  eq('payload bytes', ourBytes(ours.payload, ours.payloadEncoding), goPayload);
  eq('payloadSize', ours.payloadSize, goPayload.length);
  eq('payloadTruncated', ours.payloadTruncated, false);
  eq('maxRetry', ours.maxRetry, go.maxRetry);
  eq('retried', ours.retried, go.retried);
  eq('lastError', ours.lastError, go.lastError);
  eq('lastFailedAt', seconds(ours.lastFailedAt), go.lastFailedAt);
  eq('timeoutSeconds', ours.timeoutSeconds, go.timeoutSeconds);
  eq('deadline', seconds(ours.deadline), go.deadline);
  eq('group', ours.group, go.group === '' ? null : go.group);
  const next = seconds(ours.nextProcessAt);
  if (go.state === 'pending') {
    // Both inspectors report "now" for a pending task; the two reads are moments apart.
    if (ours.nextProcessAt === null || !(Math.abs(next - go.nextProcessAt) <= 5)) {
      out.push(`${where} nextProcessAt (pending, ±5s): ours=${show(ours.nextProcessAt)} (${next}) go=${go.nextProcessAt}`);
    }
  } else {
    eq('nextProcessAt', next, go.nextProcessAt);
  }
  eq('completedAt', seconds(ours.completedAt), go.completedAt);
  eq('retentionSeconds', ours.retentionSeconds, go.retentionSeconds);
  eq('expiresAt', seconds(ours.expiresAt), go.state === 'completed' ? go.completedAt + go.retentionSeconds : 0);
  eq('result bytes', ourBytes(ours.result, ours.resultEncoding), b64(go.resultBase64));
  // A release without headers (go.headers null) wrote every task here without any.
  eq('headers', sortedEntries(ours.headers), sortedEntries(go.headers ?? {}));
  eq('isOrphaned', ours.isOrphaned, go.isOrphaned);
  return out;
}

/** Same IDs in the same order, then every field of each task. */
function diffTaskList(ours: TaskListDto, go: GoTask[], where: string): string[] {
  const out: string[] = [];
  const ourIds = ours.tasks.map((t) => t.id);
  const goIds = go.map((t) => t.id);
  if (JSON.stringify(ourIds) !== JSON.stringify(goIds)) {
    out.push(`${where} task IDs/order differ:\n    ours=${show(ourIds)}\n    go  =${show(goIds)}`);
  }
  if (ours.total !== go.length) out.push(`${where} total: ours=${ours.total} go=${go.length}`);
  const byId = new Map(ours.tasks.map((t) => [t.id, t]));
  for (const g of go) {
    const o = byId.get(g.id);
    if (o) out.push(...diffTask(o, g, `${where} id=${g.id} (${g.type})`));
  }
  return out;
}

const md5hex = (b: Buffer) => createHash('md5').update(b).digest('hex');

/** asynq's base.UniqueKey: the lock key a Unique() task holds. */
const asynqUniqueKey = (queue: string, type: string, payload: Buffer | null) =>
  `asynq:{${queue}}:unique:${type}:${payload === null ? '' : md5hex(payload)}`;

// ---------------------------------------------------------------------------------------------

describe.skipIf(asynqGo.noGo)(`live interop with github.com/hibiken/asynq ${ASYNQ.version}`, () => {
  let redis: Redis | undefined;
  let scenario: RunningScenario | undefined;
  let dump: GoDump;
  /** When the dump was taken, to bound how far the ticking parts may have moved since. */
  let dumpAtMs: number;
  let routes: ConsoleRoutes;

  beforeAll(async () => {
    process.env.REDIS_URL = testRedisUrl(DB);
    // After REDIS_URL is set: the modules read it on their first request.
    routes = await consoleRoutes();
    redis = await openTestRedis(DB); // flushes DB 20
    scenario = await asynqGo.scenario(DB, 60_000);
    dump = await asynqGo.json<GoDump>('dump', redisArgs(DB));
    dumpAtMs = Date.now();
  });

  afterAll(async () => {
    await redis?.quit();
    if (!scenario) return;
    const { code, signal, killed } = await scenario.stop(15_000);
    if (killed || code !== 0) {
      throw new Error(
        `scenario did not shut down cleanly: code=${code} signal=${signal}${killed ? ' (SIGKILLed after 15s)' : ''}\n` +
          `--- scenario stderr ---\n${scenario.stderr()}`,
      );
    }
  });

  const enc = encodeURIComponent;
  const stableQueues = () => dump.queues.filter((q) => q !== CRON_QUEUE);

  async function listTasks(q: string, state: string, group?: string): Promise<TaskListDto> {
    const qs = `state=${state}&size=100${group === undefined ? '' : `&group=${enc(group)}`}`;
    const res = await callRoute(routes.tasks.GET, `/api/queues/${enc(q)}/tasks?${qs}`, { qname: q });
    expect(res.status, `GET tasks q=${q} ${qs}: ${res.bytes.toString()}`).toBe(200);
    return res.body as TaskListDto;
  }

  async function getTask(q: string, id: string): Promise<TaskDto> {
    const res = await callRoute(routes.task.GET, `/api/queues/${enc(q)}/tasks/${enc(id)}`, { qname: q, taskId: id });
    expect(res.status, `GET task q=${q} id=${id}: ${res.bytes.toString()}`).toBe(200);
    return res.body as TaskDto;
  }

  const goTask = (q: string, type: string): GoTask => {
    const t = Object.values(dump.taskInfo[q] ?? {}).find((x) => x.type === type);
    if (!t) throw new Error(`Go's dump has no ${type} task in ${q}`);
    return t;
  };

  it('sees the queues the scenario built', () => {
    expect(dump.queues).toEqual(['agg', 'cron', 'default', 'low priority', 'work:main', 'очередь-日本']);
  });

  it('lists every state of every queue like Go: same tasks, same order, same fields', async () => {
    const problems: string[] = [];
    let compared = 0;
    for (const q of stableQueues()) {
      const goTasks = dump.tasks[q];
      if (!goTasks) throw new Error(`dump has no tasks for ${q}`);
      for (const state of LIST_STATES) {
        const ours = await listTasks(q, state);
        problems.push(...diffTaskList(ours, goTasks[state], `q=${show(q)} state=${state}`));
        compared += goTasks[state].length;
      }
      const groups = dump.groups[q] ?? [];
      expect(Object.keys(goTasks.aggregating).sort(), `aggregating groups of ${q}`).toEqual(groups.map((g) => g.group));
      for (const { group } of groups) {
        const ours = await listTasks(q, 'aggregating', group);
        problems.push(...diffTaskList(ours, goTasks.aggregating[group] ?? [], `q=${show(q)} state=aggregating group=${show(group)}`));
        compared += goTasks.aggregating[group]?.length ?? 0;
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    // 12 default + 5 work:main + 5 agg + 1 + 1: proves the comparison did not run on empty lists.
    expect(compared).toBe(24);
  });

  it('returns each task’s detail like Go’s GetTaskInfo', async () => {
    const problems: string[] = [];
    let compared = 0;
    for (const q of stableQueues()) {
      for (const [id, go] of Object.entries(dump.taskInfo[q] ?? {})) {
        const ours = await getTask(q, id);
        problems.push(...diffTask(ours, go, `detail q=${show(q)} id=${id} (${go.type})`));
        compared++;
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect(compared).toBe(24);
  });

  it('reports queue stats like Go’s GetQueueInfo', async () => {
    const res = await callRoute(routes.queues.GET, '/api/queues');
    const calledAtMs = Date.now();
    expect(res.status).toBe(200);
    const ours = (res.body as { queues: QueueStatsDto[] }).queues;
    expect(ours.map((s) => s.queue), 'queue names, sorted').toEqual(dump.queues);

    const problems: string[] = [];
    const elapsed = (calledAtMs - dumpAtMs) / 1000;
    const fields = [
      'paused', 'size', 'pending', 'active', 'scheduled', 'retry', 'archived', 'completed',
      'aggregating', 'groups', 'processed', 'failed', 'processedTotal', 'failedTotal',
    ] as const;
    for (const q of stableQueues()) {
      const go = dump.queueInfo[q];
      const o = ours.find((s) => s.queue === q);
      if (!go || !o) {
        problems.push(`q=${show(q)} missing: ours=${!!o} go=${!!go}`);
        continue;
      }
      for (const f of fields) {
        if (o[f] !== go[f]) problems.push(`q=${show(q)} ${f}: ours=${show(o[f])} go=${show(go[f])}`);
      }
      // Latency is the age of the oldest pending task, so it grew since the dump.
      const expected = go.latencyNs / 1e9 + (go.pending > 0 ? elapsed : 0);
      if (!(Math.abs(o.latencySeconds - expected) <= 5)) {
        problems.push(`q=${show(q)} latencySeconds: ours=${o.latencySeconds} go=${go.latencyNs / 1e9} (+${elapsed}s since dump) ±5s`);
      }
    }
    const cron = ours.find((s) => s.queue === CRON_QUEUE);
    const goCron = dump.queueInfo[CRON_QUEUE];
    if (!cron || !goCron) problems.push(`cron queue missing: ours=${!!cron} go=${!!goCron}`);
    else if (!(cron.pending >= goCron.pending)) problems.push(`cron pending: ours=${cron.pending} < go=${goCron.pending}`);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('lists groups like Go’s Groups', async () => {
    for (const q of dump.queues) {
      const res = await callRoute(routes.groups.GET, `/api/queues/${enc(q)}/groups`, { qname: q });
      expect(res.status, `groups of ${q}`).toBe(200);
      const ours = [...(res.body as { groups: { group: string; size: number }[] }).groups].sort((a, b) =>
        a.group < b.group ? -1 : a.group > b.group ? 1 : 0,
      );
      expect(ours, `groups of ${q}`).toEqual(dump.groups[q]);
    }
    expect(dump.groups.agg).toEqual([{ group: 'g1', size: 3 }, { group: 'g2', size: 2 }]);
  });

  it('reports daily history like Go’s History', async () => {
    for (const q of dump.queues) {
      const res = await callRoute(routes.history.GET, `/api/queues/${enc(q)}/history?days=7`, { qname: q });
      expect(res.status, `history of ${q}`).toBe(200);
      expect((res.body as { days: unknown[] }).days, `history of ${q}`).toEqual(dump.history[q]);
    }
    expect(dump.history['work:main']?.[0]).toMatchObject({ processed: 7, failed: 3 });
  });

  it('shows the unique locks of Unique() tasks with their real TTL and holder', async () => {
    for (const [type, state] of [['email:unique', 'pending'], ['email:later-unique', 'scheduled']] as const) {
      const go = goTask('default', type);
      expect(go.state).toBe(state);
      const key = asynqUniqueKey('default', type, b64(go.payloadBase64));
      const ours = await getTask('default', go.id);
      const pttl = await redis!.pttl(key);
      const holder = await redis!.get(key);
      const where = `${type} id=${go.id}`;
      expect(holder, `${where}: Redis lock ${key} holder`).toBe(go.id);
      expect(pttl, `${where}: Redis PTTL of ${key}`).toBeGreaterThan(0);
      expect(ours.uniqueKey, `${where} uniqueKey`).toBe(key);
      expect(ours.uniqueLock, `${where} uniqueLock`).toMatchObject({ key, holderId: go.id, ownedByThisTask: true });
      const ttl = ours.uniqueLock?.ttlSeconds ?? NaN;
      expect(Math.abs(ttl - pttl / 1000), `${where} ttlSeconds ours=${ttl} real=${pttl / 1000}`).toBeLessThanOrEqual(2);
    }
  });

  it('shows the not-found handler error of the work:unknown archive verbatim', async () => {
    const go = goTask('work:main', 'work:unknown');
    expect(go.state).toBe('archived');
    const ours = await getTask('work:main', go.id);
    expect(ours.state).toBe('archived');
    expect(ours.lastError).toBe('handler not found for task "work:unknown"');
    const listed = (await listTasks('work:main', 'archived')).tasks.find((t) => t.id === go.id);
    expect(listed?.lastError).toBe('handler not found for task "work:unknown"');
  });

  it('encodes binary payloads as base64 and empty/nil payloads as size 0', async () => {
    const binary = goTask('default', 'blob:binary');
    const ours = await getTask('default', binary.id);
    expect(ours).toMatchObject({ payload: '//4AAYA=', payloadEncoding: 'base64', payloadSize: 5 });
    const listed = (await listTasks('default', 'pending')).tasks;
    expect(listed.find((t) => t.id === binary.id)).toMatchObject({ payload: '//4AAYA=', payloadEncoding: 'base64', payloadSize: 5 });
    for (const type of ['blob:empty', 'blob:nil']) {
      const go = goTask('default', type);
      const detail = await getTask('default', go.id);
      expect(detail.payloadSize, `${type} detail payloadSize`).toBe(0);
      expect(ourBytes(detail.payload, detail.payloadEncoding).length, `${type} detail payload`).toBe(0);
      expect(listed.find((t) => t.id === go.id)?.payloadSize, `${type} listed payloadSize`).toBe(0);
    }
    const result = goTask('work:main', 'work:result');
    const withResult = await getTask('work:main', result.id);
    expect(ourBytes(withResult.result, withResult.resultEncoding)).toEqual(Buffer.from('result-bytes-\x00\xff', 'latin1'));
    // The time Go's MarkAsComplete gave the task in the completed set, the one its forwarder deletes by.
    const score = Number(await redis!.zscore('asynq:{work:main}:completed', result.id));
    expect(seconds(withResult.expiresAt)).toBe(score);
    expect(score).toBe(result.completedAt + 3600);
  });

  it('lists the Go server and its active work:block worker', async () => {
    expect(dump.servers).toHaveLength(1);
    const go = dump.servers[0]!;
    const block = goTask('work:main', 'work:block');
    expect(go.workers.map((w) => w.taskId), 'Go sees the blocked worker').toContain(block.id);

    const res = await callRoute(routes.servers.GET, '/api/servers');
    expect(res.status).toBe(200);
    const ours = (res.body as ServerListDto).servers.find((s) => s.id === go.id);
    expect(ours, `our /api/servers has server ${go.id}`).toBeDefined();
    expect({
      id: ours!.id, host: ours!.host, pid: ours!.pid, concurrency: ours!.concurrency, queues: ours!.queues,
      strictPriority: ours!.strictPriority, status: ours!.status, startedAt: seconds(ours!.startedAt),
    }).toEqual({
      id: go.id, host: go.host, pid: go.pid, concurrency: go.concurrency, queues: go.queues,
      strictPriority: go.strictPriority, status: go.status, startedAt: go.startedAt,
    });
    for (const w of go.workers) {
      const o = ours!.workers.find((x) => x.taskId === w.taskId);
      expect(o, `worker for task ${w.taskId}`).toBeDefined();
      expect(
        { taskId: o!.taskId, taskType: o!.taskType, queue: o!.queue, startedAt: seconds(o!.startedAt), deadline: seconds(o!.deadline) },
        `worker for task ${w.taskId}`,
      ).toEqual({ taskId: w.taskId, taskType: w.taskType, queue: w.queue, startedAt: w.startedAt, deadline: w.deadline });
      // The payload the worker recorded, as asynqmon shows it: the same bytes Go's Inspector reads.
      expect(ourBytes(o!.payload, o!.payloadEncoding), `worker payload of task ${w.taskId}`).toEqual(Buffer.from(w.payloadBase64 ?? '', 'base64'));
      expect(o!.payloadSize, `worker payload size of task ${w.taskId}`).toBe(Buffer.from(w.payloadBase64 ?? '', 'base64').length);
    }
    expect(go.workers.some((w) => (w.payloadBase64 ?? '') !== ''), 'a worker with a payload (the comparison is not vacuous)').toBe(true);
    expect(ours!.workers.find((x) => x.taskId === block.id)).toMatchObject({ taskType: 'work:block', queue: 'work:main' });
  });

  it('lists both scheduler entries and the enqueue events of the 1s entry', async () => {
    const res = await callRoute(routes.schedulers.GET, '/api/schedulers');
    const calledAtMs = Date.now();
    expect(res.status).toBe(200);
    const ours = (res.body as SchedulerListDto).entries;
    expect(dump.schedulerEntries.map((e) => e.taskType).sort()).toEqual(['cron:hourly', 'cron:tick']);
    const slack = Math.ceil((calledAtMs - dumpAtMs) / 1000) + 2;

    for (const go of dump.schedulerEntries) {
      const where = `entry ${go.id} (${go.spec} ${go.taskType})`;
      const o = ours.find((e) => e.id === go.id);
      expect(o, `${where} is listed`).toBeDefined();
      expect({ spec: o!.spec, taskType: o!.taskType }, where).toEqual({ spec: go.spec, taskType: go.taskType });
      expect(ourBytes(o!.payload, o!.payloadEncoding).equals(b64(go.payloadBase64)), `${where} payload: ours=${o!.payload}`).toBe(true);
      // Go re-parses the stored option strings and drops what it cannot parse; we keep them all.
      let from = 0;
      for (const opt of go.options) {
        const at = o!.options.indexOf(opt, from);
        expect(at, `${where}: Go option ${opt} in order within ours ${show(o!.options)}`).toBeGreaterThanOrEqual(0);
        from = at + 1;
      }
      const next = seconds(o!.nextEnqueueAt);
      const prev = seconds(o!.prevEnqueueAt);
      if (go.spec === '@every 1s') {
        // Rewritten by every scheduler heartbeat: ours may be a few ticks later than the dump.
        expect(next - go.nextEnqueueAt, `${where} nextEnqueueAt ours=${next} go=${go.nextEnqueueAt}`).toBeGreaterThanOrEqual(0);
        expect(next - go.nextEnqueueAt, `${where} nextEnqueueAt ours=${next} go=${go.nextEnqueueAt}`).toBeLessThanOrEqual(slack);
        expect(prev - go.prevEnqueueAt, `${where} prevEnqueueAt ours=${prev} go=${go.prevEnqueueAt}`).toBeGreaterThanOrEqual(0);
        expect(prev - go.prevEnqueueAt, `${where} prevEnqueueAt ours=${prev} go=${go.prevEnqueueAt}`).toBeLessThanOrEqual(slack);
      } else {
        expect({ next, prev }, `${where} next/prev enqueue times`).toEqual({ next: go.nextEnqueueAt, prev: go.prevEnqueueAt });
      }
    }

    const tick = dump.schedulerEntries.find((e) => e.spec === '@every 1s')!;
    const goEvents = dump.schedulerEvents[tick.id] ?? [];
    expect(goEvents.length, 'Go saw at least two cron:tick events').toBeGreaterThanOrEqual(2);
    const ourEvents: { taskId: string; enqueuedAt: number }[] = [];
    for (let page = 1; ; page++) {
      const ev = await callRoute(routes.events.GET, `/api/schedulers/${enc(tick.id)}/events?page=${page}&size=100`, {
        entryId: tick.id,
      });
      expect(ev.status, `events page ${page}`).toBe(200);
      const batch = (ev.body as { events: { taskId: string; enqueuedAt: string | null }[] }).events;
      ourEvents.push(...batch.map((e) => ({ taskId: e.taskId, enqueuedAt: seconds(e.enqueuedAt) })));
      if (batch.length < 100) break;
    }
    // Ours kept ticking after the dump: Go's list must be one contiguous run of ours, newest first.
    const start = ourEvents.findIndex((e) => e.taskId === goEvents[0]!.taskId);
    expect(start, `Go's newest event ${goEvents[0]!.taskId} among ours`).toBeGreaterThanOrEqual(0);
    // Compared to the second: the sub-second part is checked in tests/interop/worker/go-inspector.test.ts.
    expect(ourEvents.slice(start, start + goEvents.length), `entry ${tick.id}: Go's events as one contiguous run of ours`).toEqual(
      goEvents.map(({ taskId, enqueuedAt }) => ({ taskId, enqueuedAt })),
    );
    for (const e of ourEvents.slice(0, start)) {
      expect(e.enqueuedAt, `newer event ${e.taskId} is not older than Go's newest`).toBeGreaterThanOrEqual(goEvents[0]!.enqueuedAt);
    }
  });
});
