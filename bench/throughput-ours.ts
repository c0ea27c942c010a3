/**
 * The throughput benchmark's TypeScript side, run as a child process like Go's `interop-bin
 * bench-process` / `bench-enqueue` (tests/go/throughput.go), with the same flags and the same
 * one-line JSON result, so both start from a fresh process with nothing else on its heap:
 *
 *   node --import tsx bench/throughput-ours.ts process --redis HOST:PORT --queue Q --concurrency N --count N --warmup N
 *   node --import tsx bench/throughput-ours.ts enqueue --redis HOST:PORT --queue Q --concurrency N --count N --warmup N --payload-bytes N
 *
 * Round trips are writes to the socket of the connection the server or client uses (one per
 * command, one per pipeline: what the Go side's go-redis hook counts).
 */
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { enqueueTask } from '../lib/asynq/client/enqueue';
import * as k from '../lib/asynq/keys';
import { createRedis } from '../lib/asynq/redis';
import { ServeMux, Server } from '../lib/asynq/worker';
import { socketWriteCounter } from './measure';

export interface ThroughputResult {
  tasks: number;
  elapsedMs: number;
  perSecond: number;
  roundTrips: number;
}

interface Flags {
  url: string;
  queue: string;
  concurrency: number;
  count: number;
  warmup: number;
  payloadBytes: number;
}

function flags(args: string[]): Flags {
  const { values } = parseArgs({
    args,
    options: {
      redis: { type: 'string' }, queue: { type: 'string' }, concurrency: { type: 'string' },
      count: { type: 'string' }, warmup: { type: 'string' }, 'payload-bytes': { type: 'string' },
    },
  });
  const int = (name: string, v: string | undefined, fallback: number) => {
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${v}`);
    return n;
  };
  return {
    url: `redis://${values.redis ?? '127.0.0.1:6379'}`,
    queue: values.queue ?? 'default',
    concurrency: int('concurrency', values.concurrency, 10),
    count: int('count', values.count, 0),
    warmup: int('warmup', values.warmup, 0),
    payloadBytes: int('payload-bytes', values['payload-bytes'], 128),
  };
}

const result = (tasks: number, ms: number, roundTrips: number): ThroughputResult => ({ tasks, elapsedMs: ms, perSecond: tasks / (ms / 1000), roundTrips });

async function connected(url: string): Promise<Redis> {
  const redis = createRedis({ url });
  await redis.ping();
  return redis;
}

/** Waits until asynq's all-time processed counter of `queue` reaches `want` (1 ms polls). */
async function waitProcessed(redis: Redis, queue: string, want: number): Promise<void> {
  const end = Date.now() + 30_000;
  for (;;) {
    const n = Number((await redis.get(k.processedTotalKey(queue))) ?? 0);
    if (n >= want) return;
    if (Date.now() > end) throw new Error(`${k.processedTotalKey(queue)} is ${n}, want ${want}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/**
 * A Server with a ServeMux and a no-op handler drains the seeded tasks. The clock runs from
 * the warmup-th handler call to the last: with at most `concurrency` tasks in flight, tasks
 * are not taken faster than they are finished, so that is the processing rate; afterwards the
 * processed counter shows that every task was written back as done.
 */
async function processTasks(f: Flags): Promise<ThroughputResult> {
  if (f.count < 1 || f.warmup >= f.count || f.concurrency < 1) throw new Error('need --count >= 1, --warmup < --count, --concurrency >= 1');
  const redis = await connected(f.url);
  const poll = await connected(f.url);
  const counter = socketWriteCounter(redis);
  let handled = 0;
  let t0 = performance.now();
  let finish!: (r: { ms: number; trips: number }) => void;
  const finished = new Promise<{ ms: number; trips: number }>((r) => (finish = r));
  const mux = new ServeMux().handleFunc('bench:email', () => {
    handled += 1;
    if (handled === f.warmup) {
      t0 = performance.now();
      counter.take(); // the timed part's round trips start from zero
    } else if (handled === f.count) {
      finish({ ms: performance.now() - t0, trips: counter.take() });
    }
  });
  const server = new Server(redis, { concurrency: f.concurrency, queues: { [f.queue]: 1 }, shutdownTimeoutMs: 5000 });
  if (f.warmup === 0) counter.take();
  await server.start(mux);
  const timeout = setTimeout(() => {
    console.error(`only ${handled} of ${f.count} tasks handled in 5 minutes`);
    process.exit(1);
  }, 300_000);
  const { ms, trips } = await finished;
  clearTimeout(timeout);
  await waitProcessed(poll, f.queue, f.count);
  await server.shutdown();
  counter.restore();
  redis.disconnect();
  poll.disconnect();
  return result(f.count - f.warmup, ms, trips);
}

/** `count` enqueues (after `warmup` untimed ones) with `concurrency` of them in flight. */
async function enqueueTasks(f: Flags): Promise<ThroughputResult> {
  if (f.count < 1 || f.concurrency < 1) throw new Error('need --count >= 1, --concurrency >= 1');
  const redis = await connected(f.url);
  const payload = new Uint8Array(f.payloadBytes).map((_, i) => 97 + (i % 26));
  const task = { type: 'bench:enqueue', payload };
  const opts = { queue: f.queue };
  const enqueueAll = async (n: number) => {
    let next = 0;
    const worker = async () => {
      while (next++ < n) await enqueueTask(redis, task, opts, new Date());
    };
    await Promise.all(Array.from({ length: f.concurrency }, worker));
  };
  await enqueueAll(f.warmup);
  const counter = socketWriteCounter(redis);
  const t0 = performance.now();
  await enqueueAll(f.count);
  const ms = performance.now() - t0;
  const trips = counter.take();
  counter.restore();
  redis.disconnect();
  return result(f.count, ms, trips);
}

async function main(): Promise<void> {
  const [mode, ...rest] = process.argv.slice(2);
  const f = flags(rest);
  let r: ThroughputResult;
  if (mode === 'process') r = await processTasks(f);
  else if (mode === 'enqueue') r = await enqueueTasks(f);
  else throw new Error(`usage: throughput-ours.ts process|enqueue --redis HOST:PORT [flags], got ${mode}`);
  process.stdout.write(`${JSON.stringify(r)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
