/**
 * The console behind Sentinel: reads and writes go to the master the sentinels name, and keep
 * working through a failover — a planned one (SENTINEL FAILOVER) and a crash of the master —
 * without restarting the app. Real master, replica and sentinel processes on loopback.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoute, type Handler, type JsonBody } from '../../support/call-route';
import { MASTER_NAME, startSentinelSetup, waitForMaster, waitForReplicaOf, type SentinelSetup } from '../../support/redis-sentinel';
import { consoleRoutes, type ConsoleRoutes } from '../../support/console-routes';

let setup: SentinelSetup;
let r: ConsoleRoutes;

const JSON_HEADERS = { 'content-type': 'application/json' };
const post = (h: Handler, params: Record<string, string>, body: unknown) =>
  callRoute(h, '/api/x', params, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });
const pending = (q: string) => callRoute(r.tasks.GET, `/api/queues/${q}/tasks?state=pending&size=100`, { qname: q });
const ids = (body: JsonBody): string[] => (body.tasks as { id: string }[]).map((t) => t.id).sort();

/** Polls the queue list until it answers 200; returns how long that took and the failures seen. */
async function untilServing(timeoutMs: number): Promise<{ ms: number; failures: JsonBody[] }> {
  const started = Date.now();
  const failures: JsonBody[] = [];
  for (;;) {
    const res = await callRoute(r.queues.GET, '/api/queues');
    if (res.status === 200) {
      console.info(`serving again ${Date.now() - started} ms after the new master was in place (${failures.length} failed polls)`);
      return { ms: Date.now() - started, failures };
    }
    failures.push({ status: res.status, ...res.body });
    if (Date.now() - started > timeoutMs) throw new Error(`not serving after ${timeoutMs} ms: ${JSON.stringify(failures.at(-1))}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** A direct client of one server, to check where the data really is. */
function direct(address: string): Redis {
  const [host, port] = address.split(':');
  const client = new Redis({ host, port: Number(port), maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  return client;
}

beforeAll(async () => {
  setup = await startSentinelSetup();
  // The URL's host is ignored in Sentinel mode; it still carries db and credentials.
  process.env.REDIS_URL = 'redis://ignored.invalid:6379/0';
  process.env.ASYNQLENS_REDIS_SENTINELS = `127.0.0.1:${setup.sentinelPort}`;
  process.env.ASYNQLENS_REDIS_SENTINEL_MASTER = MASTER_NAME;
  process.env.ASYNQLENS_AUTH = 'none';
  r = await consoleRoutes();
}, 60_000);

afterAll(async () => {
  const { getRedis } = await import('@/lib/server/redis/client');
  getRedis().disconnect();
  await setup?.stop();
});

describe('Redis behind Sentinel', () => {
  const enqueued: string[] = [];

  it('reads and writes through the master the sentinel names', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await post(r.tasks.POST, { qname: 'mail' }, { type: 'email:send', payload: `{"n":${i}}` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      enqueued.push(res.body.id as string);
    }
    const list = await pending('mail');
    expect(list.status).toBe(200);
    expect(ids(list.body)).toEqual([...enqueued].sort());
    const detail = await callRoute(r.task.GET, '/', { qname: 'mail', taskId: enqueued[0]! });
    expect(detail.body.type).toBe('email:send');
    const archived = await post(r.action.POST, { qname: 'mail', taskId: enqueued[0]!, action: 'archive' }, {});
    expect(archived.status).toBe(200);
    const runAll = await post(r.bulk.POST, { qname: 'mail' }, { action: 'run', state: 'archived' });
    expect(runAll.status, JSON.stringify(runAll.body)).toBe(200);
    expect(ids((await pending('mail')).body)).toEqual([...enqueued].sort());

    // The writes are on the master the sentinel named, and replicated.
    const master = direct(await setup.masterAddress());
    expect(await master.llen('asynq:{mail}:pending')).toBe(3);
    master.disconnect();
  });

  it('keeps working through a planned failover, on the promoted replica', async () => {
    const before = await setup.masterAddress();
    const target = `127.0.0.1:${setup.replica.port}`;
    expect(before).not.toBe(target);
    await setup.sentinel.call('SENTINEL', 'FAILOVER', MASTER_NAME);
    await waitForMaster(setup, target);
    await waitForReplicaOf(setup, setup.master, setup.replica);

    const { ms } = await untilServing(10_000);
    expect(ms).toBeLessThan(10_000);
    expect(ids((await pending('mail')).body)).toEqual([...enqueued].sort());
    const res = await post(r.tasks.POST, { qname: 'mail' }, { type: 'email:send', payload: '{"n":"after"}' });
    expect(res.status).toBe(201);
    enqueued.push(res.body.id as string);
    const promoted = direct(target);
    expect(await promoted.llen('asynq:{mail}:pending')).toBe(4);
    promoted.disconnect();
  }, 120_000);

  it('fails fast naming the sentinel master while none is reachable, then recovers by itself after the master crashes', async () => {
    const current = await setup.masterAddress();
    // Every write so far has reached the other server before the crash (asynchronous
    // replication would otherwise lose the newest one, as it would in production).
    const crashed = current.endsWith(`:${setup.replica.port}`) ? setup.replica : setup.master;
    const survivor = crashed === setup.replica ? setup.master : setup.replica;
    await waitForReplicaOf(setup, survivor, crashed);
    const master = direct(current);
    expect(await master.call('WAIT', '1', '5000')).toBe(1);
    master.disconnect();
    await crashed.kill();

    const t0 = Date.now();
    const during = await callRoute(r.queues.GET, '/api/queues');
    const failMs = Date.now() - t0;
    expect(during.status).toBe(503);
    expect(during.body.error.code).toBe('redis_unavailable');
    expect(during.body.error.message).toContain(`sentinel master "${MASTER_NAME}"`);
    console.info(`503 during the crash answered in ${failMs} ms`);
    expect(failMs).toBeLessThan(4000);

    const t1 = Date.now();
    await waitForMaster(setup, `127.0.0.1:${survivor.port}`, 60_000);
    console.info(`sentinel promoted the survivor ${Date.now() - t1} ms after the crash`);
    const { ms } = await untilServing(15_000);
    expect(ms).toBeLessThan(15_000);
    expect(ids((await pending('mail')).body)).toEqual([...enqueued].sort());
    const res = await post(r.tasks.POST, { qname: 'mail' }, { type: 'email:send', payload: '{"n":"after-crash"}' });
    expect(res.status).toBe(201);
    // Re-syncing the demoted master and electing a new one take seconds each on a busy machine.
  }, 150_000);
});
