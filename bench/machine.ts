/**
 * The machine facts a results file needs, and CPU pinning.
 *
 * Why pin: on a 2-core box Redis, Node and Go share the CPUs, and a preempted Redis shows up
 * as 1-3 ms latency spikes that are scheduler noise, not Redis work (performance note §0, §4.1).
 * Redis gets core 0 and this process (with the Go child, which inherits it) the rest.
 * Pinning alone does not keep other processes of a shared box off core 0 (measured: Redis
 * waited 1 s for the CPU during an 8 s bulk run, turning 3 ms scripts into 10-28 ms SLOWLOG
 * entries), so redis-server's main thread also gets a real-time priority (SCHED_FIFO 10) when
 * the system allows it; the kernel's RT throttling still leaves 5% of core 0 to others.
 * Only the main thread: Redis' background threads (jemalloc's purger, bio lazy-free/close/fsync)
 * stay ordinary, so they run when the main thread waits and never hold it up. With every thread
 * at the same FIFO priority on one core, the main thread cannot preempt the purger returning
 * freed pages after a large delete, and whatever command waits meanwhile is timed with the
 * purge in it: a stall of the bench's making, which no production Redis is set up to have.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import type { Redis } from 'ioredis';

export interface Machine {
  nproc: number;
  cpu: string;
  node: string;
  redisVersion: string;
  pinning: string;
}

function nproc(): number {
  try {
    return Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    return availableParallelism();
  }
}

function infoField(info: string, field: string): string {
  return new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim() ?? '?';
}

/** Gives redis-server's main thread (its pid) SCHED_FIFO priority 10; says how it went, for the results header. */
function realtime(redisPid: string): string {
  try {
    execFileSync('chrt', ['-f', '-p', '10', redisPid], { stdio: 'ignore' });
    return ' with its main thread at real-time priority (SCHED_FIFO 10; background threads ordinary)';
  } catch {
    return ' (no real-time priority: chrt failed)';
  }
}

function pin(redisPid: string, cores: number): string {
  if (cores < 2) return 'not pinned (1 core)';
  try {
    // -a: every thread of the process, not just the main one (Redis has I/O and bio threads).
    execFileSync('taskset', ['-a', '-p', '-c', '0', redisPid], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', `1-${cores - 1}`, String(process.pid)], { stdio: 'ignore' });
    return `redis-server on core 0${realtime(redisPid)}, Node and Go on core${cores > 2 ? 's' : ''} 1${cores > 2 ? `-${cores - 1}` : ''}`;
  } catch (err) {
    return `not pinned (taskset failed: ${err instanceof Error ? err.message : String(err)})`;
  }
}

/** Reads the facts and pins the CPUs. One round trip (INFO server). */
export async function describeAndPin(redis: Redis): Promise<Machine> {
  const info = await redis.info('server');
  const cores = nproc();
  return {
    nproc: cores,
    cpu: cpus()[0]?.model ?? '?',
    node: process.version,
    redisVersion: infoField(info, 'redis_version'),
    pinning: pin(infoField(info, 'process_id'), cores),
  };
}
