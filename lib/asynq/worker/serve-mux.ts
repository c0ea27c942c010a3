/**
 * A task-type router with asynq's ServeMux rules: exact type first, else the longest
 * registered pattern that is a plain string prefix of the type (so `email` catches
 * `email:digest`, `email-welcome` and `emailextra`); registration order does not matter;
 * middleware added with `use` wraps every handler, the not-found handler included, the first
 * one added running outermost.
 */
import { goQuote } from '../errors';
import type { Task, TaskContext } from './task';

/** A handler as a plain function. */
export type HandlerFunc = (ctx: TaskContext, task: Task) => Promise<void> | void;
/** A handler as an object, asynq's `Handler` interface. */
export interface HandlerObject {
  processTask(ctx: TaskContext, task: Task): Promise<void> | void;
}
/** A handler fails its task by throwing (or rejecting); returning means success. */
export type Handler = HandlerFunc | HandlerObject;
/** Wraps a handler (asynq's MiddlewareFunc); call `next.processTask` to go on. */
export type Middleware = (next: HandlerObject) => HandlerObject;

/** asynq's ErrHandlerNotFound text, the start of every not-found error. */
export const HANDLER_NOT_FOUND = 'handler not found for task';

/**
 * The `cause` of every {@link HandlerNotFoundError}, so `errorIs(err, ErrHandlerNotFound)`
 * answers as for asynq's other sentinels (Go's NotFound returns a plain formatted error).
 */
export const ErrHandlerNotFound: Error = Object.assign(new Error(HANDLER_NOT_FOUND), { name: 'ErrHandlerNotFound' });

/** What the not-found handler throws: `handler not found for task "<type>"` (Go's %q). */
export class HandlerNotFoundError extends Error {
  override readonly name = 'HandlerNotFoundError';
  constructor(readonly taskType: string) {
    super(`${HANDLER_NOT_FOUND} ${goQuote(taskType)}`, { cause: ErrHandlerNotFound });
  }
}

/** Go's `errors.Is(err, ErrHandlerNotFound)`, following `cause` chains. */
export function isHandlerNotFound(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 32; e = e.cause, depth++) {
    if (e instanceof HandlerNotFoundError || e === ErrHandlerNotFound) return true;
  }
  return false;
}

/** asynq's NotFound: fails with the not-found error. Handlers may delegate to it. */
export function notFound(_ctx: TaskContext, task: Task): never {
  throw new HandlerNotFoundError(task.type);
}

/** asynq's NotFoundHandler: runs for every type no pattern matches. */
export const notFoundHandler: HandlerObject = { processTask: notFound };

/** Either handler form as an object. */
export function toHandlerObject(h: Handler): HandlerObject {
  if (typeof h === 'function') return { processTask: h };
  return h;
}

/** The router; itself a handler, so a server runs it directly. */
export class ServeMux implements HandlerObject {
  private readonly exact = new Map<string, HandlerObject>();
  /** Longest first; equal lengths cannot both be prefixes of one type unless equal. */
  private byLength: { pattern: string; handler: HandlerObject }[] = [];
  private readonly middleware: Middleware[] = [];

  /**
   * Registers `handler` for `pattern`. Throws (as asynq panics) `asynq: invalid pattern` for a
   * blank pattern, `asynq: nil handler` for a missing handler and
   * `asynq: multiple registrations for <pattern>` for a pattern registered twice.
   */
  handle(pattern: string, handler: Handler | null | undefined): this {
    if (isBlank(pattern)) throw new Error('asynq: invalid pattern');
    if (handler === null || handler === undefined) throw new Error('asynq: nil handler');
    if (this.exact.has(pattern)) throw new Error(`asynq: multiple registrations for ${pattern}`);
    const h = toHandlerObject(handler);
    this.exact.set(pattern, h);
    this.byLength = [...this.byLength, { pattern, handler: h }].sort((a, b) => b.pattern.length - a.pattern.length);
    return this;
  }

  /** Same as {@link handle} for a plain function (asynq's HandleFunc). */
  handleFunc(pattern: string, fn: HandlerFunc | null | undefined): this {
    if (fn === null || fn === undefined) throw new Error('asynq: nil handler');
    return this.handle(pattern, fn);
  }

  /** Appends middleware; the first one ever added is the outermost. */
  use(...mws: Middleware[]): this {
    this.middleware.push(...mws);
    return this;
  }

  /**
   * The handler that would run for `task`, wrapped in the middleware, and the pattern that
   * matched ('' when none did and the not-found handler runs).
   */
  handler(task: Pick<Task, 'type'>): { handler: HandlerObject; pattern: string } {
    const { handler, pattern } = this.match(task.type);
    let h = handler;
    for (let i = this.middleware.length - 1; i >= 0; i--) h = this.middleware[i]!(h);
    return { handler: h, pattern };
  }

  processTask(ctx: TaskContext, task: Task): Promise<void> | void {
    return this.handler(task).handler.processTask(ctx, task);
  }

  /** Every registered pattern, in registration-independent (longest first) order. */
  patterns(): string[] {
    return this.byLength.map((e) => e.pattern);
  }

  private match(type: string): { handler: HandlerObject; pattern: string } {
    const exact = this.exact.get(type);
    if (exact) return { handler: exact, pattern: type };
    const e = this.byLength.find(({ pattern }) => type.startsWith(pattern));
    return e ? { handler: e.handler, pattern: e.pattern } : { handler: notFoundHandler, pattern: '' };
  }
}

/**
 * Go's strings.TrimSpace(s) == "": Unicode White_Space only. JavaScript's trim() differs on two
 * characters (it strips U+FEFF, which Go keeps, and keeps U+0085, which Go strips), and a
 * pattern Go accepts must be accepted here too.
 */
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

function isBlank(s: string): boolean {
  return GO_SPACE.test(s);
}
