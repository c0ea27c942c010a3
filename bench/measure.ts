/**
 * What one read costs: wall-clock latency percentiles, round trips seen from our client's
 * socket, and top-level commands seen from Redis (MONITOR).
 */
import type { Redis } from 'ioredis';
import { countCommands } from '../tests/support/command-counter';

export interface Latency {
  p50Ms: number;
  p95Ms: number;
}

/** Nearest-rank percentile of sorted samples, rounded to µs: the method Go's bench-reads uses. */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.min(Math.max(Math.ceil((p / 100) * sorted.length), 1), sorted.length);
  return Math.round((sorted[rank - 1] ?? NaN) * 1000) / 1000;
}

/**
 * Counts writes to the client's socket. ioredis writes a single command with one write and a
 * whole pipeline with one write, so between two replies a write is one round trip.
 * Call after the client is connected (`redis.stream` is replaced on reconnect).
 */
export function socketWriteCounter(redis: Redis): { take(): number; restore(): void } {
  const stream = redis.stream;
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  let writes = 0;
  stream.write = (...args: unknown[]) => {
    writes += 1;
    return original(...args);
  };
  return {
    take() {
      const n = writes;
      writes = 0;
      return n;
    },
    restore() {
      stream.write = original;
    },
  };
}

export interface Timed extends Latency {
  /** Round trips of each measured iteration: first and largest (they differ if not constant). */
  roundTrips: number;
  roundTripsMax: number;
}

/** Runs `run` `warmup` times untimed, then `iterations` times timed and counted. */
export async function timeRuns(
  redis: Redis,
  run: () => Promise<unknown>,
  iterations: number,
  warmup: number,
): Promise<Timed> {
  for (let i = 0; i < warmup; i++) await run();
  const counter = socketWriteCounter(redis);
  const samples: number[] = [];
  const trips: number[] = [];
  try {
    for (let i = 0; i < iterations; i++) {
      counter.take();
      const t0 = performance.now();
      await run();
      samples.push(performance.now() - t0);
      trips.push(counter.take());
    }
  } finally {
    counter.restore();
  }
  samples.sort((a, b) => a - b);
  return {
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    roundTrips: trips[0] ?? 0,
    roundTripsMax: Math.max(...trips),
  };
}

/** Top-level commands (and commands nested in scripts) of one run, from MONITOR on db 0. */
export async function monitorOnce(url: string, run: () => Promise<unknown>): Promise<{ commands: string[]; nested: number }> {
  const { commands, scriptCommands } = await countCommands(url, 0, run);
  return { commands, nested: scriptCommands.length };
}
