/**
 * Turns a finished attempt into its Redis write, by asynq's rules: success → done, or
 * completed when the task has a retention; RevokeTask → done; retries exhausted or SkipRetry
 * → archived; any other error → retry after the retry delay. Every write is skipped once the
 * lease has run out: the task then belongs to whichever server's recoverer finds it.
 */
import type { RedisClient } from '../redis-client';
import type { TaskMessage } from '../types';
import type { ResolvedConfig } from './config';
import { errorIs, errorText, RevokeTask, SkipRetry } from './errors';
import type { Lease } from './lease';
import { archive, markComplete, markDone, retry } from './rdb/finish';
import { defaultRetryDelay } from './retry-delay';
import type { Syncer } from './syncer';
import type { Task, TaskContext } from './task';

/** What writing an outcome needs. */
export interface OutcomeDeps {
  redis: RedisClient;
  config: ResolvedConfig;
  syncer: Syncer;
}

function write(d: OutcomeDeps, lease: Lease, what: string, run: () => Promise<void>): Promise<void> {
  if (!lease.isValid()) return Promise.resolve();
  return d.syncer.attempt(what, lease.expiresAt, run);
}

/** Writes a success: completed when the task has a retention, else done. */
export function succeeded(d: OutcomeDeps, lease: Lease, msg: TaskMessage): Promise<void> {
  const now = () => d.config.clock.now();
  if (msg.retention > 0) return write(d, lease, `complete ${msg.id}`, () => markComplete(d.redis, msg, now()));
  return write(d, lease, `done ${msg.id}`, () => markDone(d.redis, msg, now()));
}

/** Seconds from the configured delay function; a throwing or nonsensical one falls back to asynq's. */
function retryDelaySeconds(d: OutcomeDeps, msg: TaskMessage, err: unknown, task: Task): number {
  try {
    const s = d.config.retryDelay(msg.retried, err, task);
    if (Number.isFinite(s) && s >= 0) return s;
  } catch (e) {
    d.config.logger.error(`retryDelay threw for task ${msg.id}: ${errorText(e)}`);
  }
  return defaultRetryDelay(msg.retried, err, task);
}

/** Writes a failure after telling the error handler: done, archive or retry by asynq's rules. */
export function failed(d: OutcomeDeps, lease: Lease, msg: TaskMessage, ctx: TaskContext, task: Task, err: unknown): Promise<void> {
  const { config } = d;
  try {
    config.errorHandler?.(ctx, task, err);
  } catch (e) {
    config.logger.error(`errorHandler threw for task ${msg.id}: ${errorText(e)}`);
  }
  const text = errorText(err);
  if (errorIs(err, RevokeTask)) return write(d, lease, `done ${msg.id}`, () => markDone(d.redis, msg, config.clock.now()));
  if (msg.retried >= msg.retry || errorIs(err, SkipRetry)) {
    return write(d, lease, `archive ${msg.id}`, () => archive(d.redis, msg, text, config.clock.now()));
  }
  const delayMs = retryDelaySeconds(d, msg, err, task) * 1000;
  let isFailure = true;
  try {
    isFailure = config.isFailure(err);
  } catch (e) {
    config.logger.error(`isFailure threw for task ${msg.id}: ${errorText(e)}`);
  }
  const retryAt = new Date(config.clock.now().getTime() + delayMs);
  return write(d, lease, `retry ${msg.id}`, () => retry(d.redis, msg, retryAt, text, isFailure, config.clock.now()));
}
