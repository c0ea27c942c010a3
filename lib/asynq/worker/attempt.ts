/**
 * The state of one attempt at a task: its context (asynq's `context.Context`, here an
 * AbortSignal) and the race between the handler and everything that can end the attempt
 * first (deadline, cancel request, lost lease, server abort).
 *
 * Why not simply an AbortController per task with listeners: a no-op handler finishes in
 * microseconds, and creating the controller, its listeners and an Error with a stack trace
 * for the final cancel took ~8% of the server's CPU. Here the controller is created only when
 * the handler reads `ctx.signal`, and the final `context canceled` error only when someone
 * can see it; a handler that reads the signal sees exactly what it saw before (aborted at the
 * deadline with `context deadline exceeded`, on a cancel request with `context canceled`, and
 * once the attempt is over).
 */
import { CanceledError } from './errors';
import type { TaskContext } from './task';

/** How an attempt ended. */
export type Outcome =
  | { kind: 'ok' }
  | { kind: 'error'; err: unknown }
  | { kind: 'ctx'; err: unknown }
  | { kind: 'lease-expired' }
  | { kind: 'abort' };

/** Marks a context ended by the attempt's end, whose CanceledError is made on first sight. */
const FINISHED = Symbol('finished');

export class Attempt {
  /** Settles with the first outcome reported through {@link settle}. */
  readonly outcome: Promise<Outcome>;
  private resolveOutcome: ((o: Outcome) => void) | null = null;
  private controller: AbortController | null = null;
  /** Why the context is done; undefined while it is not. */
  private reason: unknown = undefined;

  constructor() {
    this.outcome = new Promise<Outcome>((resolve) => (this.resolveOutcome = resolve));
  }

  /** The context's signal, created on first use (aborted at once if the context is done). */
  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.reason !== undefined) this.controller.abort(this.errorOf());
    }
    return this.controller.signal;
  }

  /** Whether the context is done (deadline, cancel, or the attempt is over). */
  get done(): boolean {
    return this.reason !== undefined;
  }

  /** The error the context is done with (its signal's reason). */
  errorOf(): unknown {
    if (this.reason === FINISHED) this.reason = new CanceledError();
    return this.reason;
  }

  /** Reports an outcome; the first one wins. */
  settle(o: Outcome): void {
    const resolve = this.resolveOutcome;
    this.resolveOutcome = null;
    resolve?.(o);
  }

  /** Ends the context with `err` (deadline or cancel request): the attempt fails with it. */
  cancel(err: unknown): void {
    if (this.reason !== undefined) return;
    this.reason = err;
    this.controller?.abort(err);
    this.settle({ kind: 'ctx', err });
  }

  /** Ends the context because the attempt is over (Go's deferred cancel): `context canceled`. */
  finish(): void {
    if (this.reason !== undefined) return;
    this.reason = FINISHED;
    if (this.controller !== null) this.controller.abort(this.errorOf());
  }

  /** The handler's view of this attempt. */
  context(fields: Omit<TaskContext, 'signal'>): TaskContext {
    const signalOf = () => this.signal;
    return {
      ...fields,
      get signal() {
        return signalOf();
      },
    };
  }
}
