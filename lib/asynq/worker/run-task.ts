/**
 * One attempt at one task: the handler runs against its deadline, a cancel request, the
 * lease and the server's shutdown abort, whichever comes first, exactly like asynq's worker
 * goroutine. The handler is never awaited past that point: a handler that ignores its
 * AbortSignal keeps running, but its task has already been settled in Redis.
 */
import type { RedisClient } from '../redis-client';
import type { TaskMessage } from '../types';
import type { ResolvedConfig } from './config';
import { CanceledError, DeadlineExceededError, ErrLeaseExpired } from './errors';
import type { Lease } from './lease';
import { failed, succeeded } from './outcome';
import { requeue, writeResult } from './rdb/finish';
import type { HandlerObject } from './serve-mux';
import type { Syncer } from './syncer';
import type { ResultWriter, Task, TaskContext } from './task';

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
  /** Aborted when shutdown stops waiting: unfinished tasks are then requeued. */
  abort: AbortSignal;
}

type Outcome = { kind: 'ok' } | { kind: 'error'; err: unknown } | { kind: 'ctx'; err: unknown } | { kind: 'lease-expired' } | { kind: 'abort' };

/**
 * The first of: the handler settles, the task's signal aborts, the lease is reported expired,
 * the server aborts. Listeners on the server-wide signal are removed afterwards, so a
 * long-running server does not pile up one per task.
 */
function firstOutcome(handler: Promise<Outcome> | null, ctxSignal: AbortSignal, lease: Lease, serverAbort: AbortSignal): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    const onCtx = () => finish({ kind: 'ctx', err: ctxSignal.reason });
    const onServer = () => finish({ kind: 'abort' });
    function finish(o: Outcome) {
      ctxSignal.removeEventListener('abort', onCtx);
      serverAbort.removeEventListener('abort', onServer);
      resolve(o);
    }
    if (serverAbort.aborted) return finish({ kind: 'abort' });
    if (ctxSignal.aborted) return onCtx();
    ctxSignal.addEventListener('abort', onCtx, { once: true });
    serverAbort.addEventListener('abort', onServer, { once: true });
    void lease.whenExpired().then(() => finish({ kind: 'lease-expired' }));
    void handler?.then(finish);
  });
}

function resultWriter(d: RunDeps, msg: TaskMessage, signal: AbortSignal): ResultWriter {
  return {
    taskId: msg.id,
    async write(data) {
      // asynq's own wording (typo included), since a handler may return it as its error.
      if (signal.aborted) throw new Error(`failed to result task result: ${(signal.reason as Error).message}`);
      return writeResult(d.redis, msg.queue, msg.id, typeof data === 'string' ? Buffer.from(data) : data);
    },
  };
}

/** Runs the attempt and writes its outcome. Never rejects. */
export async function runTask(d: RunDeps, w: ActiveWorker): Promise<void> {
  const { msg, lease } = w;
  const ac = new AbortController();
  d.cancelations.set(msg.id, () => ac.abort(new CanceledError()));
  const remaining = w.deadline.getTime() - d.config.clock.now().getTime();
  const timer = setTimeout(() => ac.abort(new DeadlineExceededError()), Math.max(0, remaining));
  if (remaining <= 0) ac.abort(new DeadlineExceededError());

  const ctx: TaskContext = { taskId: msg.id, queue: msg.queue, retryCount: msg.retried, maxRetry: msg.retry, deadline: w.deadline, signal: ac.signal };
  const task: Task = { type: msg.type, payload: msg.payload, headers: msg.headers, resultWriter: resultWriter(d, msg, ac.signal) };
  const deps = { redis: d.redis, config: d.config, syncer: d.syncer };
  try {
    // A context already done (deadline in the past) fails without calling the handler.
    const handler = ac.signal.aborted
      ? null
      : Promise.resolve()
          .then(() => d.handler.processTask(ctx, task))
          .then((): Outcome => ({ kind: 'ok' }), (err: unknown): Outcome => ({ kind: 'error', err }));
    const outcome = await firstOutcome(handler, ac.signal, lease, d.abort);
    switch (outcome.kind) {
      case 'ok':
        return await succeeded(deps, lease, msg);
      case 'error':
      case 'ctx':
        return await failed(deps, lease, msg, ctx, task, outcome.err);
      case 'lease-expired':
        ac.abort(new CanceledError());
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
    if (!ac.signal.aborted) ac.abort(new CanceledError());
  }
}
