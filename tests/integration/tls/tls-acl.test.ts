/**
 * Managed-Redis set-ups: TLS with a private CA and client certificates (mutual TLS), and an
 * ACL user limited to asynq's keys without admin commands. The console reads and writes through
 * them, and a wrong password, a missing client certificate or an untrusted server answer a
 * clear 503 instead of hanging. Real redis-server with TLS; test certificates in tests/fixtures/tls.
 */
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { freePort } from '../../e2e/support/app-server';
import { callRoute } from '../../support/call-route';
import { freshConsole } from '../../support/fresh-console';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'tls');
const PASSWORD = 's3cret pass:/@';
let redis: RunningRedis;
let tlsPort: number;
let admin: Redis;

beforeAll(async () => {
  tlsPort = await freePort();
  redis = await startRedisServer({
    label: 'tls',
    args: [
      '--tls-port', String(tlsPort),
      '--tls-cert-file', join(fixtures, 'server.crt'),
      '--tls-key-file', join(fixtures, 'server.key'),
      '--tls-ca-cert-file', join(fixtures, 'ca.crt'),
      '--tls-auth-clients', 'yes',
      // What a locked-down managed Redis gives an application: its keys, no admin commands.
      '--user', 'app', 'on', `>${PASSWORD}`, '~asynq:*', '~asynqlens:*', '&*', '+@all', '-@admin',
    ],
  });
  admin = new Redis(redis.url);
});

afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
});

const url = (password = PASSWORD) => `rediss://app:${encodeURIComponent(password)}@127.0.0.1:${tlsPort}/0`;
const mutualTls = {
  ASYNQLENS_REDIS_TLS_CA_FILE: join(fixtures, 'ca.crt'),
  ASYNQLENS_REDIS_TLS_CERT_FILE: join(fixtures, 'client.crt'),
  ASYNQLENS_REDIS_TLS_KEY_FILE: join(fixtures, 'client.key'),
};

describe('TLS and ACL', () => {
  it('reads and writes over mutual TLS as a restricted ACL user', async () => {
    const r = await freshConsole({ REDIS_URL: url(), ...mutualTls });
    const created = await callRoute(r.tasks.POST, '/api/x', { qname: 'secure' }, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'report:build', payload: '{"id":7}' }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = await callRoute(r.tasks.GET, '/api/queues/secure/tasks?state=pending', { qname: 'secure' });
    expect(list.status).toBe(200);
    expect(list.body.tasks.map((t: { id: string }) => t.id)).toEqual([created.body.id]);
    const queues = await callRoute(r.queues.GET, '/api/queues');
    expect(queues.status, JSON.stringify(queues.body)).toBe(200);
    expect(queues.body.queues.map((q: { queue: string }) => q.queue)).toContain('secure');
    // Written on the server, as the app user, over TLS.
    expect(await admin.llen('asynq:{secure}:pending')).toBe(1);
    const clients = await admin.call('CLIENT', 'LIST') as string;
    expect(clients).toMatch(/user=app .*name=asynqlens|name=asynqlens.*user=app/);
  });

  it.each([
    // The port is known only once beforeAll ran, so each case builds its settings then.
    ['a wrong password', () => ({ REDIS_URL: url('nope'), ...mutualTls }), /WRONGPASS|invalid username-password/i],
    // Under TLS 1.3 the client often sees only a reset (the server's alert loses the race with
    // its first write); the console's own bare handshake then finds the alert.
    ['no client certificate', () => ({ REDIS_URL: url(), ASYNQLENS_REDIS_TLS_CA_FILE: mutualTls.ASYNQLENS_REDIS_TLS_CA_FILE }), /certificate required/],
    ['a server its CA does not trust', () => ({ REDIS_URL: url(), ASYNQLENS_REDIS_TLS_CERT_FILE: mutualTls.ASYNQLENS_REDIS_TLS_CERT_FILE, ASYNQLENS_REDIS_TLS_KEY_FILE: mutualTls.ASYNQLENS_REDIS_TLS_KEY_FILE }), /certificate/i],
  ])('answers 503 naming the address, quickly, with %s', async (_what, env, reason) => {
    const r = await freshConsole(env());
    const t0 = Date.now();
    const res = await callRoute(r.queues.GET, '/api/queues');
    const ms = Date.now() - t0;
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.error.code).toBe('redis_unavailable');
    expect(res.body.error.message).toContain(`127.0.0.1:${tlsPort}/0`);
    expect(ms).toBeLessThan(4000);
    // The reason is in the message at once, or a moment later once the console has looked
    // behind a bare reset.
    const started = Date.now();
    let message = res.body.error.message as string;
    while (!reason.test(message) && Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 50));
      message = (await callRoute(r.queues.GET, '/api/queues')).body.error.message as string;
    }
    expect(message).toMatch(reason);
    // And it stays named: each request reconnects, and each reconnect may lose the race again.
    for (let i = 0; i < 5; i++) expect((await callRoute(r.queues.GET, '/api/queues')).body.error.message).toMatch(reason);
  });
});
