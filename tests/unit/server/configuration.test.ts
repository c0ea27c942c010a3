/**
 * The start-up check names the first configuration mistake: REDIS_URL on its own (env.ts), then
 * how the Redis settings combine into one deployment (redis/target.ts). The launcher prints these
 * messages and exits (tests/e2e/launcher.spec.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const saved = { ...process.env };

/** The check as a fresh process with exactly these settings would run it. */
async function problemWith(settings: Record<string, string>): Promise<string | null> {
  vi.resetModules();
  for (const key of Object.keys(process.env)) if (key.startsWith('ASYNQLENS_') || key === 'REDIS_URL') delete process.env[key];
  Object.assign(process.env, { ASYNQLENS_AUTH: 'none' }, settings);
  const { configurationProblem } = await import('@/lib/server/config/startup-check');
  return configurationProblem();
}

afterEach(() => {
  process.env = { ...saved };
});

// Each case loads the modules afresh, which takes seconds on a busy machine.
describe('configurationProblem', { timeout: 30_000 }, () => {
  it('accepts a plain, a sentinel and a cluster deployment, and names the address without credentials', async () => {
    expect(await problemWith({ REDIS_URL: 'redis://user:secret@db.internal:6380/3' })).toBeNull();
    const { redisAddress } = await import('@/lib/server/redis/target');
    expect(redisAddress()).toBe('db.internal:6380/3');
    expect(await problemWith({ ASYNQLENS_REDIS_SENTINELS: 's1:26379,s2:26379', ASYNQLENS_REDIS_SENTINEL_MASTER: 'main' })).toBeNull();
    expect(await problemWith({ ASYNQLENS_REDIS_CLUSTER_NODES: 'n1:7000, n2:7001' })).toBeNull();
  });

  it.each([
    ['not a url', 'REDIS_URL: REDIS_URL must be a redis:// or rediss:// URL'],
    ['http://127.0.0.1:6379', 'REDIS_URL: the scheme must be redis:// or rediss://, got http://'],
    ['redis://127.0.0.1:6379/abc', 'REDIS_URL: the database "/abc" must be a number'],
  ])('names a REDIS_URL of %j', async (url, message) => {
    expect(await problemWith({ REDIS_URL: url })).toBe(message);
  });

  it('takes the servers\' time zone as an IANA name and names an unknown one', async () => {
    expect(await problemWith({ ASYNQLENS_SERVER_TZ: 'Europe/Paris' })).toBeNull();
    expect(await problemWith({ ASYNQLENS_SERVER_TZ: 'UTC' })).toBeNull();
    expect(await problemWith({ ASYNQLENS_SERVER_TZ: 'Europe/Atlantis' })).toBe(
      'ASYNQLENS_SERVER_TZ: unknown time zone "Europe/Atlantis": give an IANA name such as Europe/Paris, or UTC',
    );
    expect(await problemWith({ ASYNQLENS_SERVER_TZ: '' })).toMatch(/^ASYNQLENS_SERVER_TZ: unknown time zone ""/);
  });

  it('names settings that do not make one deployment', async () => {
    expect(await problemWith({ ASYNQLENS_REDIS_SENTINELS: '127.0.0.1:26379' })).toMatch(/^ASYNQLENS_REDIS_SENTINEL_MASTER: required with ASYNQLENS_REDIS_SENTINELS/);
    expect(await problemWith({ ASYNQLENS_REDIS_SENTINEL_MASTER: 'main' })).toMatch(/^ASYNQLENS_REDIS_SENTINEL_MASTER: set ASYNQLENS_REDIS_SENTINELS too/);
    expect(await problemWith({ ASYNQLENS_REDIS_SENTINELS: 's:1', ASYNQLENS_REDIS_SENTINEL_MASTER: 'm', ASYNQLENS_REDIS_CLUSTER_NODES: 'n:1' })).toMatch(/choose one deployment, not both$/);
    expect(await problemWith({ ASYNQLENS_REDIS_CLUSTER_NODES: '127.0.0.1' })).toMatch(/^ASYNQLENS_REDIS_CLUSTER_NODES: "127.0.0.1" is not host:port/);
    expect(await problemWith({ ASYNQLENS_REDIS_CLUSTER_NODES: 'n:1', REDIS_URL: 'redis://n:1/2' })).toBe('REDIS_URL: Redis Cluster has only database 0, got /2');
    expect(await problemWith({ ASYNQLENS_REDIS_TLS_CERT_FILE: '/tls/client.crt' })).toMatch(/^ASYNQLENS_REDIS_TLS_CERT_FILE and ASYNQLENS_REDIS_TLS_KEY_FILE go together/);
  });
});
