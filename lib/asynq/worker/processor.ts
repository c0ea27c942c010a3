/**
 * The dequeue loop: takes a task whenever a worker slot is free, polling the queues in
 * priority order, and runs it. Like asynq, one dequeue is in flight at a time and an empty
 * round sleeps half the task-check interval plus jitter, so an idle server costs Redis about
 * one script call per queue per second rather than a blocking connection.
 */
import type { RedisClient } from '../redis-client';
import type { ResolvedConfig } from './config';
import { computeDeadline } from './deadline';
import { Lease } from './lease';
import { sleep } from './loop';
import { queueOrder } from './queue-order';
import { dequeue } from './rdb/dequeue';
import { runTask, type ActiveWorker } from './run-task';
import type { HandlerObject } from './serve-mux';
import type { Syncer } from './syncer';

/** The dequeue loop and the set of running attempts of one server. */
export class Processor {
  private readonly active = new Map<string, ActiveWorker>();
  private readonly running = new Set<Promise<void>>();
  private readonly quit = new AbortController();
  private readonly abort = new AbortController();
  private readonly order: () => string[];
  private slotFreed: (() => void) | null = null;
  private loop: Promise<void> = Promise.resolve();
  private lastErrorLog = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly config: ResolvedConfig,
    private readonly syncer: Syncer,
    private readonly handler: HandlerObject,
    readonly cancelations: Map<string, () => void>,
  ) {
    this.order = queueOrder(config.queues, config.strictPriority);
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
    this.slotFreed?.();
    await this.loop;
  }

  /**
   * Stops taking tasks, waits up to the shutdown timeout for running ones, then requeues
   * whatever is still running and resolves once every worker has let go.
   */
  async shutdown(): Promise<void> {
    await this.stop();
    const timer = setTimeout(() => this.abort.abort(), this.config.shutdownTimeoutMs);
    while (this.running.size > 0) await Promise.all([...this.running]);
    clearTimeout(timer);
  }

  private async run(): Promise<void> {
    const { config } = this;
    const signal = this.quit.signal;
    while (!signal.aborted) {
      if (this.running.size >= config.concurrency) {
        await new Promise<void>((resolve) => (this.slotFreed = resolve));
        continue;
      }
      try {
        const got = await dequeue(this.redis, this.order(), config.clock.now());
        if (got === null) {
          const interval = config.taskCheckIntervalMs;
          await sleep(interval / 2 + Math.random() * interval, signal);
          continue;
        }
        const deadline = computeDeadline(got.msg, config.clock.now());
        this.launch({ msg: got.msg, startedAt: config.clock.now(), deadline, lease: new Lease(got.leaseExpiresAt, config.clock) });
      } catch (err) {
        // Redis down or a corrupt message: say so at most every 3 s and back off a little.
        if (Date.now() - this.lastErrorLog > 3000) {
          this.lastErrorLog = Date.now();
          config.logger.error(`dequeue error: ${String(err)}`);
        }
        await sleep(config.taskCheckIntervalMs, signal);
      }
    }
  }

  private launch(w: ActiveWorker): void {
    // IDs are unique per queue only.
    const key = `${w.msg.queue}\n${w.msg.id}`;
    this.active.set(key, w);
    const deps = { redis: this.redis, config: this.config, syncer: this.syncer, handler: this.handler, cancelations: this.cancelations, abort: this.abort.signal };
    const p = runTask(deps, w).finally(() => {
      this.active.delete(key);
      this.running.delete(p);
      const wake = this.slotFreed;
      this.slotFreed = null;
      wake?.();
    });
    this.running.add(p);
  }
}
