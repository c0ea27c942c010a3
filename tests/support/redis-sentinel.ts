/**
 * A Sentinel deployment on loopback for tests: a master, one replica and one sentinel
 * (quorum 1), each its own redis-server process with a private dir. Failover is fast
 * (down-after 1 s) so a test can kill the master and watch the replica take over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../e2e/support/app-server';
import { startRedisServer, type RunningRedis } from '../../scripts/support/redis-server';

export const MASTER_NAME = 'asynqlens-test';

export interface SentinelSetup {
  master: RunningRedis;
  replica: RunningRedis;
  sentinelPort: number;
  /** A client of the sentinel itself (SENTINEL … commands). */
  sentinel: Redis;
  /** host:port the sentinel currently names as master. */
  masterAddress(): Promise<string>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`sentinel setup: timed out waiting for ${what}`);
    await sleep(100);
  }
}

export async function startSentinelSetup(): Promise<SentinelSetup> {
  const master = await startRedisServer({ label: 'sentinel-master' });
  const replica = await startRedisServer({ label: 'sentinel-replica', args: ['--replicaof', '127.0.0.1', String(master.port)] });
  const dir = mkdtempSync(join(tmpdir(), 'asynqlens-sentinel-'));
  const sentinelPort = await freePort();
  const conf = join(dir, 'sentinel.conf');
  writeFileSync(
    conf,
    [
      `port ${sentinelPort}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `logfile ${join(dir, 'sentinel.log')}`,
      `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${master.port} 1`,
      `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
      // A second failover of the same master may start 2 × this after the first: keep it short.
      `sentinel failover-timeout ${MASTER_NAME} 3000`,
      `sentinel parallel-syncs ${MASTER_NAME} 1`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(process.env.REDIS_SERVER_BIN ?? 'redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  const sentinel = new Redis({ host: '127.0.0.1', port: sentinelPort, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  sentinel.on('error', () => {});
  const masterAddress = async () => {
    const [host, port] = (await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)) as [string, string];
    return `${host}:${port}`;
  };
  // Ready once the replica is in sync and the sentinel knows it (it learns replicas from the
  // master's INFO), so a failover has somewhere to go.
  const replicaClient = new Redis(replica.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  replicaClient.on('error', () => {});
  try {
    await waitFor('the replica to sync', async () => ((await replicaClient.info('replication')).includes('master_link_status:up') ? true : null));
  } finally {
    replicaClient.disconnect();
  }
  await waitFor('the sentinel to know the replica', async () => {
    const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', MASTER_NAME)) as string[][];
    return replicas.some((r) => r.includes(String(replica.port)) && !r.join(' ').includes('s_down')) ? true : null;
  });
  return {
    master,
    replica,
    sentinelPort,
    sentinel,
    masterAddress,
    stop: async () => {
      sentinel.disconnect();
      killChild();
      process.removeListener('exit', killChild);
      await Promise.all([master.stop(), replica.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the sentinel names `address` as the master and that server says it is one. */
export async function waitForMaster(setup: SentinelSetup, address: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(`${address} to become master`, async () => ((await setup.masterAddress()) === address ? true : null), timeoutMs);
  const [, port] = address.split(':');
  const probe = new Redis({ host: '127.0.0.1', port: Number(port), lazyConnect: true, maxRetriesPerRequest: 1 });
  probe.on('error', () => {});
  try {
    await waitFor(`${address} to report role master`, async () => ((await probe.info('replication')).includes('role:master') ? true : null), timeoutMs);
  } finally {
    probe.disconnect();
  }
}

/** Waits until `replica` replicates from `master` with its link up (the sentinel reconfigures an old master after a failover). */
export async function waitForReplicaOf(_setup: SentinelSetup, replica: RunningRedis, master: RunningRedis, timeoutMs = 30_000): Promise<void> {
  const probe = new Redis(replica.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  probe.on('error', () => {});
  try {
    await waitFor(`127.0.0.1:${replica.port} to replicate from ${master.port}`, async () => {
      const info = await probe.info('replication');
      return info.includes(`master_port:${master.port}`) && info.includes('master_link_status:up') ? true : null;
    }, timeoutMs);
  } finally {
    probe.disconnect();
  }
}
