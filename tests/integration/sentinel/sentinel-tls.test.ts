/**
 * The console behind a Sentinel deployment served only over TLS, configured as an operator
 * would: a rediss:// URL with an ACL user, password and db, the sentinels and master name, and
 * the CA and client certificate files. Master, replica and sentinel require a client
 * certificate and have no plain port, so every connection the console makes — to the sentinel,
 * to the master it names, to the sentinel again for failover news — must be TLS. Real
 * redis-server processes; test certificates in tests/fixtures/tls.
 */
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoute } from '../../support/call-route';
import type { ConsoleRoutes } from '../../support/console-routes';
import { freshConsole } from '../../support/fresh-console';
import { MASTER_NAME, startSentinelSetup, type SentinelSetup } from '../../support/redis-sentinel';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'tls');
const files = { caFile: join(fixtures, 'ca.crt'), certFile: join(fixtures, 'server.crt'), keyFile: join(fixtures, 'server.key') };
const PASSWORD = 's3cret pass:/@';
/** Not 0, so a console that ignored the URL's db would be caught writing to the wrong one. */
const DB = 3;
const SENTINEL_MASTER = `sentinel master "${MASTER_NAME}"`;

let setup: SentinelSetup;
let r: ConsoleRoutes;

/** The settings an operator gives; the URL's host is ignored (the sentinel names the master). */
const operatorEnv = (withClientCertificate = true): Record<string, string> => ({
  REDIS_URL: `rediss://app:${encodeURIComponent(PASSWORD)}@ignored.invalid:6379/${DB}`,
  ASYNQLENS_REDIS_SENTINELS: `127.0.0.1:${setup.sentinelPort}`,
  ASYNQLENS_REDIS_SENTINEL_MASTER: MASTER_NAME,
  ASYNQLENS_REDIS_TLS_CA_FILE: join(fixtures, 'ca.crt'),
  ...(withClientCertificate
    ? { ASYNQLENS_REDIS_TLS_CERT_FILE: join(fixtures, 'client.crt'), ASYNQLENS_REDIS_TLS_KEY_FILE: join(fixtures, 'client.key') }
    : {}),
});

const enqueue = (payload: string) =>
  callRoute(r.tasks.POST, '/api/x', { qname: 'mail' }, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'email:send', payload }),
  });
const pendingIds = async (): Promise<string[]> => {
  const res = await callRoute(r.tasks.GET, '/api/queues/mail/tasks?state=pending&size=100', { qname: 'mail' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.tasks as { id: string }[]).map((t) => t.id).sort();
};

/** What one data node holds and who is connected to it, read as the default user over TLS. */
async function inspectNode(address: string) {
  const node = setup.connectTo(address, { db: DB });
  try {
    const [, plainPort] = (await node.call('CONFIG', 'GET', 'port')) as [string, string];
    const role = /role:(\w+)/.exec(await node.info('replication'))?.[1];
    const pending = (await node.lrange('asynq:{mail}:pending', 0, -1)).sort();
    const clients = ((await node.call('CLIENT', 'LIST')) as string).split('\n');
    const consoleClients = clients.filter((c) => / name=asynqlens /.test(c));
    return { plainPort, role, pending, consoleClients };
  } finally {
    node.disconnect();
  }
}

beforeAll(async () => {
  setup = await startSentinelSetup({
    tls: files,
    // ACLs are per server: both data nodes know the console's user, as after a failover the
    // replica must accept it too.
    args: ['--user', 'app', 'on', `>${PASSWORD}`, '~asynq:*', '~asynqlens:*', '&*', '+@all', '-@admin'],
  });
  r = await freshConsole(operatorEnv());
}, 60_000);

afterAll(async () => {
  (globalThis as { asynqlensRedis?: Redis }).asynqlensRedis?.disconnect();
  await setup?.stop();
});

describe('Sentinel over TLS', () => {
  const enqueued: string[] = [];

  it('reads and writes through the master the sentinel names, over TLS, as the URL user and db', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await enqueue(`{"n":${i}}`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      enqueued.push(res.body.id as string);
    }
    const queues = await callRoute(r.queues.GET, '/api/queues');
    expect(queues.status, JSON.stringify(queues.body)).toBe(200);
    expect(queues.body.queues.map((q: { queue: string }) => q.queue)).toEqual(['mail']);
    expect(await pendingIds()).toEqual([...enqueued].sort());
    const detail = await callRoute(r.task.GET, '/', { qname: 'mail', taskId: enqueued[0]! });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body).toMatchObject({ id: enqueued[0], type: 'email:send', queue: 'mail' });

    const masterAddress = await setup.masterAddress();
    expect(masterAddress).toBe(setup.addressOf(setup.master));
    const master = await inspectNode(masterAddress);
    // The plain port is closed: the console's connection can only be TLS.
    expect(master.plainPort).toBe('0');
    expect(master.role).toBe('master');
    expect(master.pending).toEqual([...enqueued].sort());
    expect(master.consoleClients.length, master.consoleClients.join('\n')).toBeGreaterThan(0);
    for (const c of master.consoleClients) expect(c).toContain(' user=app ');
    expect(master.consoleClients.some((c) => c.includes(` db=${DB} `) && c.includes(` laddr=${masterAddress} `))).toBe(true);
  });

  it('follows a planned failover to the promoted replica over TLS, without a restart', async () => {
    const target = setup.addressOf(setup.replica);
    expect(await setup.masterAddress()).not.toBe(target);
    const t0 = Date.now();
    await setup.sentinel.call('SENTINEL', 'FAILOVER', MASTER_NAME);
    // Over once the sentinel names the replica and no longer flags a failover in progress.
    const deadline = Date.now() + 20_000;
    let state = '';
    for (;;) {
      const fields = (await setup.sentinel.call('SENTINEL', 'MASTER', MASTER_NAME)) as string[];
      const info = Object.fromEntries(fields.flatMap((v, i) => (i % 2 === 0 ? [[v, fields[i + 1]]] : [])));
      state = `${info.ip}:${info.port} flags=${info.flags}`;
      if (`${info.ip}:${info.port}` === target && !String(info.flags).includes('failover_in_progress')) break;
      if (Date.now() > deadline) throw new Error(`failover not over after 20 s: ${state}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    console.info(`failover over ${Date.now() - t0} ms after SENTINEL FAILOVER (${state})`);

    // No restart: the same module graph and client. The console follows the sentinel's
    // +switch-master by reconnecting; it has followed once its connection, as the URL's user
    // and db, is on the new master's TLS port. (A request sent in the instant the old
    // connection is closing answers 503 not sent; the sentinel-routes suite polls through that.)
    const t1 = Date.now();
    const onTarget = (c: string) => c.includes(' user=app ') && c.includes(` db=${DB} `) && c.includes(` laddr=${target} `);
    let seen: string[] = [];
    while (!(seen = (await inspectNode(target)).consoleClients).some(onTarget)) {
      if (Date.now() - t1 > 10_000) throw new Error(`the console is not on ${target} after 10 s: ${seen.join('; ')}`);
      await new Promise((res) => setTimeout(res, 50));
    }
    console.info(`console connected to the new master ${Date.now() - t1} ms after the switch`);
    // The demoted master would answer the enqueue READONLY, a 503.
    expect(await pendingIds()).toEqual([...enqueued].sort());
    const res = await enqueue('{"n":"after"}');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    enqueued.push(res.body.id as string);
    expect(await pendingIds()).toEqual([...enqueued].sort());

    const promoted = await inspectNode(target);
    expect(promoted.plainPort).toBe('0');
    expect(promoted.role).toBe('master');
    expect(promoted.pending).toEqual([...enqueued].sort());
  }, 40_000);

  it('answers 503 unreachable naming the sentinel master at once, then the reason, when the client certificate is missing', async () => {
    const bare = await freshConsole(operatorEnv(false));
    const list = async () => {
      const t0 = Date.now();
      const res = await callRoute(bare.queues.GET, '/api/queues');
      return { ...res, ms: Date.now() - t0 };
    };
    // Every round in which no sentinel answered ends the request's wait: ioredis would keep
    // retrying the sentinels within one connect attempt, and the request would wait out the
    // reconnect bound and then the command timeout, to be misreported as a stall.
    const first = await list();
    console.info(`503 without a client certificate in ${first.ms} ms: ${first.body?.error?.message}`);
    for (const res of [first, await list()]) {
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'unreachable' });
      expect(res.body.error.message).toContain(SENTINEL_MASTER);
      expect(res.ms).toBeLessThan(1500);
    }
    // The sentinel's refusal reaches ioredis as a bare reset; the console's bare handshake
    // finds the alert, and the following requests name it.
    const started = Date.now();
    let message = first.body.error.message as string;
    while (!/certificate required/.test(message) && Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 50));
      message = (await list()).body.error.message as string;
    }
    expect(message).toMatch(/sentinel 127\.0\.0\.1:\d+: .*certificate required/);
  });
});
