/**
 * Retries the final Redis write of a task that could not be made (Redis briefly gone), as
 * asynq's syncer does: every few seconds, until the task's lease runs out. After that the
 * write is dropped on purpose: another server's recoverer owns the task by then.
 */
import { isAsynqError } from '../errors';
import type { Clock } from '../clock';
import type { Logger } from './config';
import { every, type Loop } from './loop';

interface SyncRequest {
  run: () => Promise<void>;
  what: string;
  deadline: Date;
}

/** Pending final writes of tasks, retried until their leases end. */
export class Syncer {
  private pending: SyncRequest[] = [];
  private loop: Loop | null = null;

  constructor(private readonly clock: Clock, private readonly logger: Logger, private readonly intervalMs = 5000) {}

  start(): void {
    this.loop = every(this.intervalMs, () => this.flush(), (err) => this.logger.error(`syncer: ${String(err)}`), false);
  }

  /**
   * Runs `run` now; on a Redis error keeps retrying it until `deadline`. An error saying the
   * task is no longer active is final (someone else moved it) and only logged.
   */
  async attempt(what: string, deadline: Date, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      if (isAsynqError(err, 'task_not_found')) {
        this.logger.warn(`${what}: ${err.message}`);
        return;
      }
      this.logger.warn(`${what} failed, will retry until the lease ends: ${String(err)}`);
      this.pending.push({ run, what, deadline });
    }
  }

  /** One last try of everything still pending, then stop (asynq does the same at shutdown). */
  async stop(): Promise<void> {
    await this.loop?.stop();
    await this.flush();
  }

  private async flush(): Promise<void> {
    const due = this.pending;
    this.pending = [];
    for (const r of due) {
      if (this.clock.now().getTime() > r.deadline.getTime()) {
        this.logger.warn(`${r.what}: gave up, the lease ended`);
        continue;
      }
      try {
        await r.run();
      } catch (err) {
        if (!isAsynqError(err, 'task_not_found')) this.pending.push(r);
      }
    }
  }
}
