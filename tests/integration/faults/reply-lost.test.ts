/**
 * A change whose reply is lost is never applied twice. A TCP proxy forwards the mutation's
 * script call to Redis (which runs it) and drops the connection before the reply gets back:
 * the route answers 503 with `outcome: 'unknown'` at once, the client reconnects and does NOT
 * send the command again, and Redis holds the change exactly once.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k from '@/lib/asynq/keys';
import { seedZset } from '@/lib/asynq/testutil/seed';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy';
import { get, post, report, sleep, timed, waitFor } from './helpers';
import { consoleRoutes } from '../../support/console-routes';

let server: RunningRedis;
let proxy: TcpProxy;
let direct: Redis;

/** A script call (EVALSHA or EVAL) in RESP: the mutation itself, not a read before it. */
const scriptCall = (req: Buffer) => /\$7\r\nevalsha\r\n|\$4\r\neval\r\n/i.test(req.toString('latin1'));

beforeAll(async () => {
  server = await startRedisServer({ label: 'reply-lost' });
  proxy = await startTcpProxy({ host: server.host, port: server.port });
  process.env.REDIS_URL = proxy.url(0);
  direct = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  direct.disconnect();
  await proxy.close();
  await server.stop();
});

/** After a drop: the client reconnects through the proxy and a read works again. */
async function expectRecovered(connectionsBefore: number) {
  const r = await consoleRoutes();
  const first = await get(r.queues.GET);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(proxy.connections()).toBeGreaterThan(connectionsBefore);
}

describe('a mutation whose reply is lost', () => {
  it('the very first command of the lazy connection works (offline queue for the first connect only)', async () => {
    const r = await consoleRoutes();
    const res = await get(r.queues.GET);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(proxy.connections()).toBe(1);
  });

  it('enqueue without an ID: 503 outcome unknown at once, exactly one new task, never resent', async () => {
    const r = await consoleRoutes();
    // Warm the script cache so the dropped call is the EVALSHA that runs.
    expect((await post(r.tasks.POST, { qname: 'faults' }, { type: 'warm' })).status).toBe(201);
    const before = await direct.llen(k.pendingKey('faults'));
    const connections = proxy.connections();

    const dropped = proxy.dropReplyTo(scriptCall);
    const res = await timed(() => post(r.tasks.POST, { qname: 'faults' }, { type: 'email:welcome', payload: '{"to":"a@example.com"}' }));
    await dropped;
    report('enqueue, reply lost → 503', res.ms);
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'unreachable', outcome: 'unknown' });
    expect(res.body.error.message).toContain(`127.0.0.1:${proxy.port}`);
    expect(res.body.error.message).toMatch(/outcome of this change is unknown.*Check the current state before retrying/);
    expect(res.ms).toBeLessThan(500);

    // ioredis would resend on the reconnect (200 ms later); give it ample time to do so.
    await waitFor('the reconnect', () => proxy.connections() > connections, 3000);
    await sleep(500);
    expect(await direct.llen(k.pendingKey('faults'))).toBe(before + 1);
    const ids = await direct.lrange(k.pendingKey('faults'), 0, -1);
    const types = await Promise.all(ids.map((id) => direct.hget(k.taskKey('faults', id), 'msg')));
    expect(types.filter((msg) => msg?.includes('email:welcome'))).toHaveLength(1);
    await expectRecovered(connections);
  });

  it('run an archived task: 503 outcome unknown, the task is pending exactly once, hash and sets agree', async () => {
    const r = await consoleRoutes();
    const m = newTaskMessage({ type: 'report', queue: 'faults-run' });
    await seedZset(direct, 'archived', m, Math.floor(Date.now() / 1000) - 60);
    const connections = proxy.connections();

    const dropped = proxy.dropReplyTo(scriptCall);
    const res = await timed(() => post(r.action.POST, { qname: 'faults-run', taskId: m.id, action: 'run' }));
    await dropped;
    report('run task, reply lost → 503', res.ms);
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'redis_unavailable', outcome: 'unknown' });
    expect(res.ms).toBeLessThan(500);

    await waitFor('the reconnect', () => proxy.connections() > connections, 3000);
    await sleep(500);
    expect(await direct.lrange(k.pendingKey('faults-run'), 0, -1)).toEqual([m.id]);
    expect(await direct.zcard(k.archivedKey('faults-run'))).toBe(0);
    expect(await direct.hget(k.taskKey('faults-run', m.id), 'state')).toBe('pending');
    // The user checks, as the message says: the task page shows it pending, and archiving it
    // again works once, with no counter touched twice.
    const again = await post(r.action.POST, { qname: 'faults-run', taskId: m.id, action: 'archive' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await direct.zrange(k.archivedKey('faults-run'), 0, -1)).toEqual([m.id]);
    expect(await direct.llen(k.pendingKey('faults-run'))).toBe(0);
  });

  it('a read whose reply is lost just fails with 503 (no outcome), and the next one succeeds', async () => {
    const r = await consoleRoutes();
    const connections = proxy.connections();
    const dropped = proxy.dropReplyTo(() => true);
    const res = await timed(() => get(r.queues.GET));
    await dropped;
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('redis_unavailable');
    expect(res.body.error.outcome).toBeUndefined();
    expect(res.ms).toBeLessThan(500);
    await expectRecovered(connections);
  });
});
