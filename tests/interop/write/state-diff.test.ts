/**
 * Every single and bulk state change, done once by asynq's own Inspector (real Go, the release
 * the run judges by) and once by our route handlers, from the same starting state in two databases: the whole
 * Redis afterwards (every key, type, TTL presence and value) must be the same.
 *
 * Allowed: a "now" score/time may differ by ≤ 2 s. Documented deliberate differences are
 * asserted one by one (the lock asynq leaks is still in its result and gone from ours, ...),
 * then removed from both sides before the strict comparison. Invalid operations must give
 * asynq's error text and change nothing on either side. Inspector.UpdateTaskPayload exists since
 * v0.26.0; runs against older releases leave its cases out. The fixture's tasks carry headers,
 * which every older release's Inspector operation keeps (none of them rewrites a message).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k from '@/lib/asynq/keys';
import { openTestRedis } from '../../support/test-redis';
import { ASYNQ } from '../go-harness';
import { asynqGo, dumpRedis, goInspectOp, type GoOpRequest, type GoOpResult, type RawDump } from './go';
import { diffDumps, stringValue, withoutKeys, type NowWindow } from './redis-diff';
import { openApi, type Api, type ApiResponse } from './routes';
import { ANCIENT_700, EMPTYISH, lockOf, NO_ACTIVE, OVERFULL_10600, Q, seedAncientArchived, seedFixture, seedManyArchived, seedPaused, T0 } from './state-fixture';

const DB_GO = 25;
const DB_OURS = 26;

asynqGo.requireGo('state-diff.test.ts');

interface ChangeCase {
  name: string;
  /** One Inspector call, or several in a row (the equivalent of one of our bulk-by-IDs calls). */
  go: GoOpRequest | GoOpRequest[];
  ours: (api: Api) => Promise<ApiResponse>;
  /** Extra starting state, applied to both databases. */
  prepare?: (r: Redis) => Promise<void>;
  /** For bulk cases: the number both sides must report. */
  count?: number;
  /**
   * Documented deliberate difference: unique locks asynq leaves behind (lock key → the ID of the
   * deleted task that still owns it) and we release.
   */
  locksOnlyAsynqKeeps?: Record<string, string>;
  /** Documented deliberate difference: task hashes asynq's archive trimming orphans, we delete. */
  hashesOnlyAsynqKeeps?: string[];
  /** The same for a large archive: the hashes of the tasks the case's trimming drops. */
  dropped?: (c: ChangeCase) => string[];
  /** Tasks both archives must hold at the end. */
  archivedSize?: number;
}

const single = (op: 'runTask' | 'archiveTask' | 'deleteTask', id: string, extra: Partial<ChangeCase> = {}): ChangeCase => ({
  name: `${op} ${id}`,
  go: { op, queue: Q, id },
  ours: (api) => (op === 'deleteTask' ? api.deleteTask(Q, id) : api.taskAction(Q, id, op === 'runTask' ? 'run' : 'archive')),
  ...extra,
});

const all = (
  op: GoOpRequest['op'],
  action: 'run' | 'archive' | 'delete',
  state: string,
  count: number,
  extra: Partial<ChangeCase> & { group?: string } = {},
): ChangeCase => ({
  name: `${op}${extra.group ? ` ${extra.group}` : ''}`,
  go: { op, queue: Q, ...(extra.group ? { group: extra.group } : {}) },
  ours: (api) => api.bulk(Q, { action, state, ...(extra.group ? { group: extra.group } : {}) }),
  count,
  ...extra,
});

function byIds(action: 'run' | 'archive' | 'delete', state: string, ids: string[], extra: Partial<ChangeCase> = {}): ChangeCase {
  const op = `${action}Task` as const;
  return {
    name: `bulk ${action} ${state} by IDs [${ids.join(', ')}] (asynq: ${op} for each)`,
    go: ids.map((id) => ({ op, queue: Q, id })),
    ours: (api) => api.bulk(Q, { action, state, ids }),
    count: ids.length,
    ...extra,
  };
}

/**
 * A case on a large archive (seeded beside the fixture): asynq's trimming leaves the hashes of
 * the tasks it drops (the lowest-scored: all of an ancient set, the first of an over-full one),
 * ours deletes them; both archives must end with `size` tasks.
 */
function bigArchive(set: { prefix: string; count: number; score: (i: number) => number }, size: number): Partial<ChangeCase> {
  // The fixture's archive holds x1 and x2, scored above every seeded task.
  const added = (c: ChangeCase) => (Array.isArray(c.go) ? c.go.length : c.count ?? 1);
  return {
    prepare: seedManyArchived(set.prefix, set.count, set.score),
    archivedSize: size,
    dropped: (c) => {
      const total = set.count + 2 + added(c);
      const n = set.score(0) < T0 - 90 * 86_400 ? set.count : total - size;
      return Array.from({ length: n }, (_, i) => k.taskKey(Q, `${set.prefix}${i}`));
    },
  };
}

const CHANGES: ChangeCase[] = [
  // run: scheduled, retry, archived, completed, aggregating (sole member and not), unique or not
  ...['s1', 's2', 'r1', 'r2', 'x1', 'x2', 'c1', 'g1a', 'g1b', 'g2a'].map((id) => single('runTask', id)),
  // archive: pending, scheduled, retry, completed, aggregating
  ...['p1', 'p2', 's1', 's2', 'r2', 'c1', 'g1a', 'g1b', 'g2a'].map((id) => single('archiveTask', id)),
  single('archiveTask', 'p1', {
    name: 'archiveTask p1 with an archived task older than 90 days (trimmed)',
    prepare: seedAncientArchived,
    hashesOnlyAsynqKeeps: [k.taskKey(Q, 'x9')],
  }),
  // archives with more to trim than one short call takes: trimmed in full, like asynq's one script
  ...[
    single('archiveTask', 'p1', { name: 'archiveTask p1 with 700 archived tasks older than 90 days', ...bigArchive(ANCIENT_700, 3) }),
    single('archiveTask', 'p1', { name: 'archiveTask p1 with an archive of 10 602 (past 9 999)', ...bigArchive(OVERFULL_10600, 9_999) }),
    all('archiveAllPending', 'archive', 'pending', 3, { name: 'archiveAllPending with 700 archived tasks older than 90 days', ...bigArchive(ANCIENT_700, 5) }),
    all('archiveAllScheduled', 'archive', 'scheduled', 3, { name: 'archiveAllScheduled with an archive of 10 602', ...bigArchive(OVERFULL_10600, 9_999) }),
    byIds('archive', 'retry', ['r1', 'r2'], { name: 'bulk archive retry by IDs with 700 archived tasks older than 90 days', ...bigArchive(ANCIENT_700, 4) }),
  ],
  // delete: every non-active state; unique tasks release their own lock, never someone else's
  ...['p1', 'p2', 's1', 's2', 'r1', 'r2', 'x1', 'x2', 'c1', 'c2', 'g1a', 'g2a'].map((id) => single('deleteTask', id)),
  single('deleteTask', 'g1b', { locksOnlyAsynqKeeps: { [lockOf('g1b')]: 'g1b' } }),
  // update payload of a scheduled task (binary; unique, whose unique_key is not recomputed)
  ...['s1', 's2'].map((id): ChangeCase => {
    const payload = Buffer.from([0xde, 0xad, 0x00, 0xbe, 0xef, ...Buffer.from(`new-${id}`)]);
    return {
      name: `updateTaskPayload ${id}`,
      go: { op: 'updateTaskPayload', queue: Q, id, payloadBase64: payload.toString('base64') },
      ours: (api) => api.updatePayload(Q, id, payload),
    };
  }),
  // queue-level
  { name: 'pauseQueue', go: { op: 'pauseQueue', queue: Q }, ours: (api) => api.pause(Q) },
  { name: 'unpauseQueue', go: { op: 'unpauseQueue', queue: Q }, ours: (api) => api.resume(Q), prepare: seedPaused },
  {
    name: 'deleteQueue (not forced) of a queue with only completed and aggregating tasks',
    go: { op: 'deleteQueue', queue: EMPTYISH, force: false },
    ours: (api) => api.deleteQueue(EMPTYISH, false),
  },
  {
    name: 'deleteQueue forced, queue without active tasks (unique tasks own their locks)',
    go: { op: 'deleteQueue', queue: NO_ACTIVE, force: true },
    ours: (api) => api.deleteQueue(NO_ACTIVE, true),
    locksOnlyAsynqKeeps: { [lockOf('f1', NO_ACTIVE)]: 'f1', [lockOf('f4', NO_ACTIVE)]: 'f4' },
  },
  // bulk over a whole state
  all('runAllScheduled', 'run', 'scheduled', 3),
  all('runAllRetry', 'run', 'retry', 2),
  all('runAllArchived', 'run', 'archived', 2),
  all('runAllAggregating', 'run', 'aggregating', 3, { group: 'g1' }),
  all('runAllAggregating', 'run', 'aggregating', 1, { group: 'g2' }),
  all('archiveAllPending', 'archive', 'pending', 3),
  all('archiveAllScheduled', 'archive', 'scheduled', 3),
  all('archiveAllRetry', 'archive', 'retry', 2),
  all('archiveAllAggregating', 'archive', 'aggregating', 3, { group: 'g1' }),
  all('deleteAllPending', 'delete', 'pending', 3, { locksOnlyAsynqKeeps: { [lockOf('p2')]: 'p2' } }),
  all('deleteAllScheduled', 'delete', 'scheduled', 3),
  all('deleteAllRetry', 'delete', 'retry', 2),
  all('deleteAllArchived', 'delete', 'archived', 2),
  all('deleteAllCompleted', 'delete', 'completed', 2),
  all('deleteAllAggregating', 'delete', 'aggregating', 3, { group: 'g1', locksOnlyAsynqKeeps: { [lockOf('g1b')]: 'g1b' } }),
  all('deleteAllAggregating', 'delete', 'aggregating', 1, { group: 'g2' }),
  // bulk by IDs: the same as asynq's single-task call for each ID in turn
  byIds('run', 'scheduled', ['s1', 's2', 's3']),
  byIds('run', 'archived', ['x2', 'x1']),
  byIds('archive', 'pending', ['p3', 'p1']),
  byIds('archive', 'retry', ['r1', 'r2']),
  byIds('delete', 'retry', ['r1', 'r2']),
  byIds('delete', 'completed', ['c1', 'c2']),
  byIds('delete', 'aggregating', ['g1a', 'g1b', 'g2a'], { locksOnlyAsynqKeeps: { [lockOf('g1b')]: 'g1b' } }),
];

interface ErrorCase {
  name: string;
  go: GoOpRequest;
  ours: (api: Api) => Promise<ApiResponse>;
  prepare?: (r: Redis) => Promise<void>;
  status: number;
  code: string;
  /**
   * Where asynq's public Inspector and ours word a refusal differently (queue deletion: ours
   * keeps the internal error's text); both texts are asserted exactly. Task actions answer
   * with the Inspector's words (`task not found`), compared like every other text.
   */
  sentinel?: { go: string; ours: string };
}

const ERRORS: ErrorCase[] = [
  { name: 'archive an archived task', go: { op: 'archiveTask', queue: Q, id: 'x1' }, ours: (a) => a.taskAction(Q, 'x1', 'archive'), status: 409, code: 'failed_precondition' },
  { name: 'archive an active task', go: { op: 'archiveTask', queue: Q, id: 'a1' }, ours: (a) => a.taskAction(Q, 'a1', 'archive'), status: 409, code: 'failed_precondition' },
  { name: 'delete an active task', go: { op: 'deleteTask', queue: Q, id: 'a1' }, ours: (a) => a.deleteTask(Q, 'a1'), status: 409, code: 'failed_precondition' },
  { name: 'run an active task', go: { op: 'runTask', queue: Q, id: 'a1' }, ours: (a) => a.taskAction(Q, 'a1', 'run'), status: 409, code: 'failed_precondition' },
  { name: 'run a pending task', go: { op: 'runTask', queue: Q, id: 'p1' }, ours: (a) => a.taskAction(Q, 'p1', 'run'), status: 409, code: 'failed_precondition' },
  { name: 'run a task of a blank queue name', go: { op: 'runTask', queue: ' ', id: 'p1' }, ours: (a) => a.taskAction(' ', 'p1', 'run'), status: 400, code: 'invalid_argument' },
  { name: 'run an unknown task', go: { op: 'runTask', queue: Q, id: 'nope' }, ours: (a) => a.taskAction(Q, 'nope', 'run'), status: 404, code: 'task_not_found' },
  { name: 'archive an unknown task', go: { op: 'archiveTask', queue: Q, id: 'nope' }, ours: (a) => a.taskAction(Q, 'nope', 'archive'), status: 404, code: 'task_not_found' },
  { name: 'delete an unknown task', go: { op: 'deleteTask', queue: Q, id: 'nope' }, ours: (a) => a.deleteTask(Q, 'nope'), status: 404, code: 'task_not_found' },
  {
    name: 'update the payload of a pending task',
    go: { op: 'updateTaskPayload', queue: Q, id: 'p1', payloadBase64: 'eA==' },
    ours: (a) => a.updatePayload(Q, 'p1', Buffer.from('x')),
    status: 409,
    code: 'failed_precondition',
  },
  {
    name: 'update the payload of an unknown task',
    go: { op: 'updateTaskPayload', queue: Q, id: 'nope', payloadBase64: 'eA==' },
    ours: (a) => a.updatePayload(Q, 'nope', Buffer.from('x')),
    status: 404,
    code: 'task_not_found',
  },
  { name: 'pause a paused queue', go: { op: 'pauseQueue', queue: Q }, ours: (a) => a.pause(Q), prepare: seedPaused, status: 409, code: 'failed_precondition' },
  { name: 'resume a queue that is not paused', go: { op: 'unpauseQueue', queue: Q }, ours: (a) => a.resume(Q), status: 409, code: 'failed_precondition' },
  {
    name: 'delete a non-empty queue without force',
    go: { op: 'deleteQueue', queue: Q, force: false },
    ours: (a) => a.deleteQueue(Q, false),
    status: 409,
    code: 'failed_precondition',
    sentinel: { go: `queue is not empty: queue="${Q}"`, ours: `queue "${Q}" is not empty` },
  },
  {
    name: 'force-delete a queue with an active task',
    go: { op: 'deleteQueue', queue: Q, force: true },
    ours: (a) => a.deleteQueue(Q, true),
    status: 409,
    code: 'failed_precondition',
  },
  {
    name: 'run a task of an unknown queue',
    go: { op: 'runTask', queue: 'zz', id: 'p1' },
    ours: (a) => a.taskAction('zz', 'p1', 'run'),
    status: 404,
    code: 'queue_not_found',
  },
  {
    name: 'delete an unknown queue',
    go: { op: 'deleteQueue', queue: 'zz', force: true },
    ours: (a) => a.deleteQueue('zz', true),
    status: 404,
    code: 'queue_not_found',
    sentinel: { go: 'queue not found: queue="zz"', ours: 'queue "zz" does not exist' },
  },
  {
    name: 'run all archived tasks of an unknown queue',
    go: { op: 'runAllArchived', queue: 'zz' },
    ours: (a) => a.bulk('zz', { action: 'run', state: 'archived' }),
    status: 404,
    code: 'queue_not_found',
  },
];

/** The cases this release's Inspector can do (UpdateTaskPayload: v0.26.0 and later). */
function inRelease<T extends { go: GoOpRequest | GoOpRequest[] }>(cases: T[]): T[] {
  return cases.filter((c) => ASYNQ.updateTaskPayload || ![c.go].flat().some((g) => g.op === 'updateTaskPayload'));
}

/** asynq's text without the public wrapper's `asynq: ` and the internal `CODE: ` prefixes. */
function coreText(goError: string): string {
  return goError.replace(/^asynq: /, '').replace(/^((NOT_FOUND|FAILED_PRECONDITION|INTERNAL_ERROR|ALREADY_EXISTS|UNKNOWN): )+/, '');
}

describe.skipIf(asynqGo.noGo)(`state changes: our routes vs asynq ${ASYNQ.version} Inspector, whole-Redis diff`, () => {
  let api: Api;
  let goRedis: Redis;
  let ourRedis: Redis;

  beforeAll(async () => {
    await asynqGo.bin();
    goRedis = await openTestRedis(DB_GO);
    ourRedis = await openTestRedis(DB_OURS);
    api = await openApi(DB_OURS);
  });

  afterAll(() => {
    goRedis?.disconnect();
    ourRedis?.disconnect();
    api?.serverRedis().disconnect();
  });

  /** Seeds both databases identically and returns the (checked equal) starting dumps. */
  async function seedBoth(prepare?: (r: Redis) => Promise<void>): Promise<{ goStart: RawDump; ourStart: RawDump }> {
    for (const r of [goRedis, ourRedis]) {
      await seedFixture(r);
      await prepare?.(r);
    }
    const [goStart, ourStart] = await Promise.all([dumpRedis(DB_GO), dumpRedis(DB_OURS)]);
    expect(diffDumps(goStart, ourStart), 'the two starting states must be identical').toEqual([]);
    return { goStart, ourStart };
  }

  async function applyBoth(go: GoOpRequest | GoOpRequest[], ours: (api: Api) => Promise<ApiResponse>) {
    const fromSec = Math.floor(Date.now() / 1000);
    let goResult: GoOpResult = { ok: true, count: 0 };
    for (const req of Array.isArray(go) ? go : [go]) {
      const r = await goInspectOp(DB_GO, req);
      if (!r.ok) {
        goResult = r;
        break;
      }
      goResult = { ok: true, count: goResult.ok ? goResult.count + r.count : r.count };
    }
    const ourResult = await ours(api);
    const window: NowWindow = { fromSec, toSec: Math.ceil(Date.now() / 1000) };
    const [goEnd, ourEnd] = await Promise.all([dumpRedis(DB_GO), dumpRedis(DB_OURS)]);
    return { goResult, ourResult, window, goEnd, ourEnd };
  }

  describe('each successful change leaves Redis exactly as asynq leaves it', () => {
    it.each(inRelease(CHANGES).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const { goStart } = await seedBoth(c.prepare);
      const { goResult, ourResult, window, goEnd, ourEnd } = await applyBoth(c.go, c.ours);

      expect(goResult, `asynq's ${c.name} must succeed`).toMatchObject({ ok: true });
      expect(diffDumps(goStart, goEnd), `asynq's ${c.name} changed nothing: the comparison would be vacuous`).not.toEqual([]);
      expect([200, 204], `our response: ${JSON.stringify(ourResult.body)}`).toContain(ourResult.status);
      if (c.count !== undefined) {
        expect(goResult.ok && goResult.count, `asynq's ${c.name} count`).toBe(c.count);
        expect(ourResult.body, 'our bulk result').toMatchObject({ succeeded: c.count, failed: [] });
      }

      // Documented deliberate differences, asserted before they are set aside.
      let goRest = goEnd;
      for (const [lock, holder] of Object.entries(c.locksOnlyAsynqKeeps ?? {})) {
        expect(stringValue(goEnd, lock), `asynq leaks the lock ${lock} of deleted task ${holder}`).toBe(holder);
        expect(ourEnd[lock], `we release the lock ${lock} still owned by deleted task ${holder}`).toBeUndefined();
        goRest = withoutKeys(goRest, [lock]);
      }
      if (c.archivedSize !== undefined) {
        const size = (d: RawDump) => (d[k.archivedKey(Q)]?.value as unknown[] | undefined)?.length ?? 0;
        expect({ go: size(goEnd), ours: size(ourEnd) }, 'archived tasks left').toEqual({ go: c.archivedSize, ours: c.archivedSize });
      }
      const orphans = [...(c.hashesOnlyAsynqKeeps ?? []), ...(c.dropped?.(c) ?? [])];
      for (const hash of orphans) {
        expect(goEnd[hash]?.type, `asynq's inspector trimming leaves the hash ${hash} behind`).toBe('hash');
        expect(ourEnd[hash], `our trimming deletes the trimmed task's hash ${hash}`).toBeUndefined();
      }
      goRest = withoutKeys(goRest, orphans);

      expect(diffDumps(goRest, ourEnd, window), `Redis after ${c.name}: asynq vs ours`).toEqual([]);
    });
  });

  describe('invalid operations: asynq\'s error text, and nothing changes on either side', () => {
    it.each(inRelease(ERRORS).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const { goStart, ourStart } = await seedBoth(c.prepare);
      const { goResult, ourResult, goEnd, ourEnd } = await applyBoth(c.go, c.ours);

      expect(goResult.ok, `asynq's ${c.go.op} must fail`).toBe(false);
      const goError = goResult.ok ? '' : goResult.error;
      expect({ status: ourResult.status, code: ourResult.body?.error?.code }, `our answer ${JSON.stringify(ourResult.body)}`).toEqual({
        status: c.status,
        code: c.code,
      });
      if (c.sentinel) {
        expect(goError, "asynq's public error").toBe(c.sentinel.go);
        expect(ourResult.body.error.message, 'our message').toBe(c.sentinel.ours);
      } else {
        expect(ourResult.body.error.message, `our message vs asynq's "${goError}"`).toBe(coreText(goError));
      }
      expect(diffDumps(goStart, goEnd), 'asynq changed Redis on a refused operation').toEqual([]);
      expect(diffDumps(ourStart, ourEnd), 'we changed Redis on a refused operation').toEqual([]);
    });
  });

  it('pause of a queue not in asynq:queues: asynq writes a flag, we refuse (documented difference)', async () => {
    await seedBoth();
    const ourStart = await dumpRedis(DB_OURS);
    const { goResult, ourResult, goEnd, ourEnd } = await applyBoth({ op: 'pauseQueue', queue: 'nosuch' }, (a) => a.pause('nosuch'));
    expect(goResult, 'asynq pauses any queue name (PauseQueue has no existence check)').toMatchObject({ ok: true });
    expect(goEnd[k.pausedKey('nosuch')]?.type, 'asynq writes asynq:{nosuch}:paused').toBe('string');
    expect(ourResult.status, `our answer to pausing an unregistered queue: ${JSON.stringify(ourResult.body)}`).toBe(404);
    expect(ourResult.body.error.code).toBe('queue_not_found');
    expect(diffDumps(ourStart, ourEnd), 'we changed Redis when refusing').toEqual([]);
  });

  it('cancel of an active task publishes the task ID on asynq:cancel, as asynq does', async () => {
    await seedBoth();
    const sub = ourRedis.duplicate();
    const seen: string[] = [];
    await sub.subscribe(k.CANCEL_CHANNEL);
    sub.on('message', (_ch, m: string) => seen.push(m));
    const goResult = await goInspectOp(DB_GO, { op: 'cancelProcessing', queue: Q, id: 'a1' });
    const ours = await api.taskAction(Q, 'a1', 'cancel');
    await new Promise((r) => setTimeout(r, 200));
    sub.disconnect();
    expect(goResult).toMatchObject({ ok: true });
    expect(ours.status, JSON.stringify(ours.body)).toBe(202);
    // Pub/Sub is not per database: both publications arrive on the one channel.
    expect(seen, 'messages on asynq:cancel (asynq first, then ours)').toEqual(['a1', 'a1']);
  });
});
