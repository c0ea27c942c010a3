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
import { readFileSync, writeFileSync } from 'node:fs';
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

const RT_RUNTIME = '/proc/sys/kernel/sched_rt_runtime_us';

/**
 * Turns the kernel's real-time throttling off for the run, and back on at exit. Why: it lets
 * real-time threads use at most 950 ms of each second of a CPU; a bulk run keeps Redis busy
 * back to back for seconds, so once Redis (and the PING prober on its core) has used 950 ms the
 * kernel stops both for the rest of that second, and the call and every PING meanwhile wait
 * up to 50 ms (measured: a 1 ms script called back to back, 3 in flight, for 8 s: 5-6 calls of
 * 26-50 ms per run with throttling on, 0-4 with it off, loaded machine). A production Redis is
 * not a real-time thread and is not throttled so. Safe here:
 * Redis and the prober wait for the network between commands, and core 1 stays ordinary.
 * Says how it went, for the results header.
 */
function unthrottled(): string {
  let saved: string;
  try {
    saved = readFileSync(RT_RUNTIME, 'utf8').trim();
    if (saved === '-1') return ', real-time throttling already off';
    writeFileSync(RT_RUNTIME, '-1');
  } catch {
    return ', real-time throttling on (cannot change it: Redis may be held up to 50 ms once it has run 950 ms in a second)';
  }
  process.once('exit', () => {
    try {
      writeFileSync(RT_RUNTIME, saved);
    } catch {
      // Nothing to do: the next boot restores the default.
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  return `, real-time throttling off for the run (was ${saved} µs of each second)`;
}

/** Gives redis-server's main thread (its pid) SCHED_FIFO priority 10; says how it went, for the results header. */
function realtime(redisPid: string): string {
  try {
    execFileSync('chrt', ['-f', '-p', '10', redisPid], { stdio: 'ignore' });
    return ` with its main thread at real-time priority (SCHED_FIFO 10; background threads ordinary)${unthrottled()}`;
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
