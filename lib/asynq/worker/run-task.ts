/**
 * One attempt at one task: the handler runs against its deadline, a cancel request, the
 * lease and the server's shutdown abort, whichever comes first, exactly like asynq's worker
 * goroutine. The handler is never awaited past that point: a handler that ignores its
 * AbortSignal keeps running, but its task has already been settled in Redis.
 */
import type { RedisClient } from '../redis-client';
import type { TaskMessage } from '../types';
import type { ResolvedConfig } from './config';
import { Attempt } from './attempt';
import { CanceledError, DeadlineExceededError, ErrLeaseExpired } from './errors';
import type { Lease } from './lease';
import { failed, succeeded } from './outcome';
import { requeue, writeResult } from './rdb/finish';
import type { HandlerObject } from './serve-mux';
import type { Syncer } from './syncer';
import type { ResultWriter, Task } from './task';

/** A task being processed, as the heartbeat reports it. */
export interface ActiveWorker {
  msg: TaskMessage;
  startedAt: Date;
  deadline: Date;
  lease: Lease;
}

/** What one attempt needs from its processor. */
export interface RunDeps {
  redis: RedisClient;
  config: ResolvedConfig;
  syncer: Syncer;
  handler: HandlerObject;
  /** Task ID → cancel, filled while the task runs (for asynq:cancel). */
  cancelations: Map<string, () => void>;
  /**
   * The attempts in flight, so that shutdown can end them when it stops waiting (their tasks
   * are then requeued), and whether it already has.
   */
  attempts: Set<Attempt>;
  aborted(): boolean;
}

function resultWriter(d: RunDeps, msg: TaskMessage, attempt: Attempt): ResultWriter {
  return {
    taskId: msg.id,
    async write(data) {
      // asynq's own wording (typo included), since a handler may return it as its error.
      if (attempt.done) throw new Error(`failed to result task result: ${(attempt.errorOf() as Error).message}`);
      return writeResult(d.redis, msg.queue, msg.id, typeof data === 'string' ? Buffer.from(data) : data);
    },
  };
}

/**
 * Runs the attempt and writes its outcome. Never rejects. The outcome is the first of: the
 * handler settles, the context ends (deadline, cancel request), the heartbeat reports the
 * lease expired, the server's shutdown stops waiting.
 */
export async function runTask(d: RunDeps, w: ActiveWorker): Promise<void> {
  const { msg, lease } = w;
  const attempt = new Attempt();
  d.cancelations.set(msg.id, () => attempt.cancel(new CanceledError()));
  d.attempts.add(attempt);
  const remaining = w.deadline.getTime() - d.config.clock.now().getTime();
  if (d.aborted()) attempt.settle({ kind: 'abort' });
  const timer = remaining > 0 ? setTimeout(() => attempt.cancel(new DeadlineExceededError()), remaining) : undefined;
  if (remaining <= 0) attempt.cancel(new DeadlineExceededError());
  lease.onExpired(() => attempt.settle({ kind: 'lease-expired' }));

  const ctx = attempt.context({ taskId: msg.id, queue: msg.queue, retryCount: msg.retried, maxRetry: msg.retry, deadline: w.deadline });
  const task: Task = { type: msg.type, payload: msg.payload, headers: msg.headers, resultWriter: resultWriter(d, msg, attempt) };
  const deps = { redis: d.redis, config: d.config, syncer: d.syncer };
  try {
    // A context already done (deadline in the past) fails without calling the handler.
    if (!attempt.done) {
      void Promise.resolve()
        .then(() => d.handler.processTask(ctx, task))
        .then(() => attempt.settle({ kind: 'ok' }), (err: unknown) => attempt.settle({ kind: 'error', err }));
    }
    const outcome = await attempt.outcome;
    switch (outcome.kind) {
      case 'ok':
        return await succeeded(deps, lease, msg);
      case 'error':
      case 'ctx':
        return await failed(deps, lease, msg, ctx, task, outcome.err);
      case 'lease-expired':
        attempt.cancel(new CanceledError());
        // The error handler hears of it; the lease is gone, so nothing is written.
        return await failed(deps, lease, msg, ctx, task, ErrLeaseExpired);
      case 'abort':
        d.config.logger.warn(`quitting worker, task id=${msg.id} goes back to its queue`);
        if (lease.isValid()) await d.syncer.attempt(`requeue ${msg.id}`, lease.expiresAt, () => requeue(d.redis, msg));
        return;
    }
  } catch (err) {
    d.config.logger.error(`task ${msg.id}: ${String(err)}`);
  } finally {
    clearTimeout(timer);
    d.cancelations.delete(msg.id);
    d.attempts.delete(attempt);
    attempt.finish();
  }
}
