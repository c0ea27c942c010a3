/**
 * 50 concurrent enqueues of one task, 25 through our route handler and 25 through the real Go
 * client (tests/go `enqueue-race`, one connection per goroutine), all released at the same
 * wall-clock instant: exactly one succeeds, every other one is refused as a duplicate (Unique)
 * or an ID conflict (TaskID), whichever side it came from. Three rounds of each.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k from '@/lib/asynq/keys';
import { openTestRedis } from '../../support/test-redis';
import { asynqGo, goEnqueueRace, type GoRaceResult } from './go';
import { openApi, type Api, type ApiResponse } from './routes';

const DB = 24;
const QUEUE = 'race';
const PER_SIDE = 25;
const ROUNDS = 3;

asynqGo.requireGo('race.test.ts');

interface Round {
  go: GoRaceResult;
  ours: { created: number; duplicate: number; idConflict: number; other: string[] };
  /** Spread of our requests' start times around the agreed instant, ms. */
  oursStartSpreadMs: [number, number];
  winner: 'go' | 'ours' | 'none';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

describe.skipIf(asynqGo.noGo)('concurrent enqueues of one task from our API and the Go client', () => {
  let api: Api;
  let redis: Redis;
  const summary: string[] = [];

  beforeAll(async () => {
    await asynqGo.bin();
    redis = await openTestRedis(DB);
    api = await openApi(DB);
    // Warm up: connection open and scripts loaded, so our side starts as promptly as Go's.
    await api.enqueue('warmup', { type: 'ok:warm', payload: 'w', options: { uniqueTtlSeconds: 5 } });
    await api.enqueue('warmup', { type: 'ok:warm', payload: 'w', options: { uniqueTtlSeconds: 5 } });
    await api.enqueue('warmup', { type: 'ok:warm', payload: 'v', options: { taskId: 'w' } });
    await api.enqueue('warmup', { type: 'ok:warm', payload: 'v', options: { taskId: 'w' } });
  });

  afterAll(() => {
    console.info(`[race] outcomes (each round: ${PER_SIDE} ours + ${PER_SIDE} Go at one instant)\n${summary.join('\n')}`);
    redis?.disconnect();
    api?.serverRedis().disconnect();
  });

  async function race(body: Record<string, unknown>, goOpts: { uniqueSeconds?: number; taskId?: string }): Promise<Round> {
    await redis.flushdb();
    const payload = Buffer.from('the one task');
    const startAt = Date.now() + 1500;
    const goRun = goEnqueueRace(DB, { count: PER_SIDE, queue: QUEUE, type: 'ok:race', payload, startAtUnixMs: startAt, ...goOpts });
    await sleep(startAt - Date.now());
    const starts: number[] = [];
    const answers: ApiResponse[] = await Promise.all(
      Array.from({ length: PER_SIDE }, () => {
        starts.push(Date.now() - startAt);
        return api.enqueue(QUEUE, { type: 'ok:race', payload: payload.toString('utf8'), ...body });
      }),
    );
    const go = await goRun;
    const ours = { created: 0, duplicate: 0, idConflict: 0, other: [] as string[] };
    for (const a of answers) {
      if (a.status === 201) ours.created++;
      else if (a.status === 409 && a.body.error.code === 'duplicate_task') ours.duplicate++;
      else if (a.status === 409 && a.body.error.code === 'task_id_conflict') ours.idConflict++;
      else ours.other.push(`${a.status} ${JSON.stringify(a.body)}`);
    }
    const winner = go.ok + ours.created !== 1 ? 'none' : go.ok === 1 ? 'go' : 'ours';
    return { go, ours, oursStartSpreadMs: [Math.min(...starts), Math.max(...starts)], winner };
  }

  /** Exactly one task hash, one pending entry, in the queue. */
  async function expectOneTask(label: string): Promise<string> {
    const pending = await redis.lrange(k.pendingKey(QUEUE), 0, -1);
    expect(pending, `${label}: pending list`).toHaveLength(1);
    const hashes: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${k.taskKeyPrefix(QUEUE)}*`, 'COUNT', 1000);
      hashes.push(...keys);
      cursor = next;
    } while (cursor !== '0');
    expect(hashes, `${label}: task hashes in the queue`).toEqual([k.taskKey(QUEUE, pending[0]!)]);
    return pending[0]!;
  }

  for (let round = 1; round <= ROUNDS; round++) {
    it(`Unique(60s), round ${round}: one success, 49 duplicate_task / ErrDuplicateTask`, async () => {
      const r = await race({ options: { uniqueTtlSeconds: 60 } }, { uniqueSeconds: 60 });
      summary.push(`Unique round ${round}: winner=${r.winner} go=${JSON.stringify(r.go)} ours=${JSON.stringify(r.ours)} ourStarts=${r.oursStartSpreadMs.join('..')}ms`);
      expect({ goOther: r.go.other, oursOther: r.ours.other }, 'unexpected errors').toEqual({ goOther: [], oursOther: [] });
      expect(r.go.ok + r.ours.created, `successes (Go ${r.go.ok} + ours ${r.ours.created})`).toBe(1);
      expect(r.go.duplicate + r.ours.duplicate, `duplicates (Go ${r.go.duplicate} + ours ${r.ours.duplicate})`).toBe(2 * PER_SIDE - 1);
      expect(r.go.idConflict + r.ours.idConflict, 'ID conflicts').toBe(0);
      const id = await expectOneTask(`Unique round ${round}`);
      expect(await redis.get(k.uniqueKey(QUEUE, 'ok:race', Buffer.from('the one task'))), 'the lock names the one task').toBe(id);
    });
  }

  for (let round = 1; round <= ROUNDS; round++) {
    it(`TaskID, round ${round}: one success, 49 task_id_conflict / ErrTaskIDConflict`, async () => {
      const taskId = `race-id-${round}`;
      const r = await race({ options: { taskId } }, { taskId });
      summary.push(`TaskID round ${round}: winner=${r.winner} go=${JSON.stringify(r.go)} ours=${JSON.stringify(r.ours)} ourStarts=${r.oursStartSpreadMs.join('..')}ms`);
      expect({ goOther: r.go.other, oursOther: r.ours.other }, 'unexpected errors').toEqual({ goOther: [], oursOther: [] });
      expect(r.go.ok + r.ours.created, `successes (Go ${r.go.ok} + ours ${r.ours.created})`).toBe(1);
      expect(r.go.idConflict + r.ours.idConflict, `ID conflicts (Go ${r.go.idConflict} + ours ${r.ours.idConflict})`).toBe(2 * PER_SIDE - 1);
      expect(r.go.duplicate + r.ours.duplicate, 'duplicates').toBe(0);
      expect(await expectOneTask(`TaskID round ${round}`), 'the one task has the ID').toBe(taskId);
    });
  }
});
