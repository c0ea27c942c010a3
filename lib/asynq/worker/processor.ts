/**
 * The dequeue loop: takes a task whenever a worker slot is free, polling the queues in
 * priority order, and runs it. Like asynq, a dequeue is only sent for a free worker slot, and
 * an empty round sleeps half the task-check interval plus jitter, so an idle server costs
 * Redis about one script call per queue per second rather than a blocking connection.
 *
 * Unlike asynq, which has one dequeue in flight at a time, up to
 * {@link MAX_DEQUEUES_IN_FLIGHT} are while the queues have tasks: a server is otherwise
 * bound to one task per round trip however many slots are free (Go's processor waits on
 * each reply in its own goroutine; here every reply also waits its turn in the event loop).
 * Redis sees the same calls per task; at the end of a burst at most that many dequeues come
 * back empty, and until a dequeue finds a task again the server polls with one at a time.
 */
import type { RedisClient } from '../redis-client';
import type { ResolvedConfig } from './config';
import { computeDeadline } from './deadline';
import { Lease } from './lease';
import { sleep } from './loop';
import { queueOrder } from './queue-order';
import { dequeue } from './rdb/dequeue';
import type { Attempt } from './attempt';
import { runTask, type ActiveWorker, type RunDeps } from './run-task';
import type { HandlerObject } from './serve-mux';
import type { Syncer } from './syncer';

/** Dequeues a server has in flight at most while its queues have tasks (see the file comment). */
export const MAX_DEQUEUES_IN_FLIGHT = 4;

/** The dequeue loop and the set of running attempts of one server. */
export class Processor {
  private readonly active = new Map<string, ActiveWorker>();
  private readonly running = new Set<Promise<void>>();
  private readonly quit = new AbortController();
  /** Attempts in flight; shutdown ends them when it stops waiting. */
  private readonly attempts = new Set<Attempt>();
  private aborted = false;
  private readonly deps: RunDeps;
  private readonly order: () => string[];
  private wakeLoop: (() => void) | null = null;
  private loop: Promise<void> = Promise.resolve();
  /** Dequeues sent and not yet back (each holds a worker slot); polling (one at a time) until one finds a task. */
  private readonly dequeues = new Set<Promise<void>>();
  private polling = true;
  private lastErrorLog = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly config: ResolvedConfig,
    private readonly syncer: Syncer,
    private readonly handler: HandlerObject,
    readonly cancelations: Map<string, () => void>,
  ) {
    this.order = queueOrder(config.queues, config.strictPriority);
    this.deps = { redis, config, syncer, handler, cancelations, attempts: this.attempts, aborted: () => this.aborted };
  }

  /** Tasks in flight, for the heartbeat. */
  workers(): ActiveWorker[] {
    return [...this.active.values()];
  }

  start(): void {
    this.loop = this.run();
  }

  /** Stops taking new tasks; running ones go on. */
  async stop(): Promise<void> {
    this.quit.abort();
    this.wake();
    await this.loop;
    // A dequeue still in flight may bring a task, which then runs like the others.
    while (this.dequeues.size > 0) await Promise.all([...this.dequeues]);
  }

  /**
   * Stops taking tasks, waits up to the shutdown timeout for running ones, then requeues
   * whatever is still running and resolves once every worker has let go.
   */
  async shutdown(): Promise<void> {
    await this.stop();
    const timer = setTimeout(() => {
      this.aborted = true;
      for (const attempt of this.attempts) attempt.settle({ kind: 'abort' });
    }, this.config.shutdownTimeoutMs);
    while (this.running.size > 0) await Promise.all([...this.running]);
    clearTimeout(timer);
  }

  private wake(): void {
    const wake = this.wakeLoop;
    this.wakeLoop = null;
    wake?.();
  }

  private async run(): Promise<void> {
    const { config } = this;
    const signal = this.quit.signal;
    while (!signal.aborted) {
      const busy = this.running.size + this.dequeues.size >= config.concurrency;
      if (busy || this.dequeues.size >= (this.polling ? 1 : MAX_DEQUEUES_IN_FLIGHT)) {
        await new Promise<void>((resolve) => (this.wakeLoop = resolve));
        continue;
      }
      const p: Promise<void> = this.dequeueOne(signal).finally(() => {
        this.dequeues.delete(p);
        this.wake();
      });
      this.dequeues.add(p);
    }
  }

  /** One dequeue: launches the task it brings, or sleeps before the next poll. Never rejects. */
  private async dequeueOne(signal: AbortSignal): Promise<void> {
    const { config } = this;
    try {
      const got = await dequeue(this.redis, this.order(), config.clock.now());
      if (got === null) {
        this.polling = true;
        const interval = config.taskCheckIntervalMs;
        await sleep(interval / 2 + Math.random() * interval, signal);
        return;
      }
      this.polling = false;
      const now = config.clock.now();
      this.launch({ msg: got.msg, startedAt: now, deadline: computeDeadline(got.msg, now), lease: new Lease(got.leaseExpiresAt, config.clock) });
    } catch (err) {
      // Redis down or a corrupt message: say so at most every 3 s and back off a little.
      this.polling = true;
      if (Date.now() - this.lastErrorLog > 3000) {
        this.lastErrorLog = Date.now();
        config.logger.error(`dequeue error: ${String(err)}`);
      }
      await sleep(config.taskCheckIntervalMs, signal);
    }
  }

  private launch(w: ActiveWorker): void {
    // IDs are unique per queue only.
    const key = `${w.msg.queue}\n${w.msg.id}`;
    this.active.set(key, w);
    const p = runTask(this.deps, w).finally(() => {
      this.active.delete(key);
      this.running.delete(p);
      this.wake();
    });
    this.running.add(p);
  }
}
