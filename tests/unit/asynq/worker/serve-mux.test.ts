/**
 * Every ServeMux rule of asynq's servemux.go, case by case (table-driven where it reads
 * better), including both registration errors and middleware order around not-found.
 */
import { describe, expect, it } from 'vitest';
import {
  ErrHandlerNotFound,
  errorIs,
  HandlerNotFoundError,
  isHandlerNotFound,
  newTask,
  notFound,
  ServeMux,
  type HandlerObject,
  type Middleware,
  type TaskContext,
} from '@/lib/asynq/worker';

const ctx: TaskContext = {
  taskId: 'id-1',
  queue: 'default',
  retryCount: 2,
  maxRetry: 25,
  deadline: new Date(0),
  signal: new AbortController().signal,
};

/** A mux whose handlers record their pattern into `calls`. */
function recordingMux(patterns: string[]): { mux: ServeMux; calls: string[] } {
  const calls: string[] = [];
  const mux = new ServeMux();
  for (const p of patterns) mux.handleFunc(p, () => void calls.push(p));
  return { mux, calls };
}

describe('ServeMux matching', () => {
  const patterns = ['email', 'email:welcome', 'image:', 'image:resize:big', 'a'];
  it.each([
    ['email:welcome', 'email:welcome'], // exact match first
    ['email:digest', 'email'], // plain prefix
    ['email-welcome', 'email'], // not segment-aware
    ['emailextra', 'email'],
    ['email', 'email'],
    ['image:resize:big', 'image:resize:big'],
    ['image:resize:bigger', 'image:resize:big'], // longest prefix wins
    ['image:resize', 'image:'],
    ['abc', 'a'],
    ['image', ''], // shorter than every image pattern: not found
    ['report:new', ''],
  ])('%s → %s', async (type, want) => {
    const { mux, calls } = recordingMux(patterns);
    expect(mux.handler(newTask(type)).pattern).toBe(want);
    if (want === '') {
      await expect(Promise.resolve().then(() => mux.processTask(ctx, newTask(type)))).rejects.toThrow(HandlerNotFoundError);
      expect(calls).toEqual([]);
    } else {
      await mux.processTask(ctx, newTask(type));
      expect(calls).toEqual([want]);
    }
  });

  it('does not depend on registration order', () => {
    const types = ['email:welcome', 'email:digest', 'image:resize:bigger', 'image:x', 'abc', 'zzz'];
    const forward = recordingMux(patterns).mux;
    const backward = recordingMux([...patterns].reverse()).mux;
    for (const t of types) expect(backward.handler(newTask(t)).pattern).toBe(forward.handler(newTask(t)).pattern);
  });

  it('accepts handler objects as well as functions', async () => {
    const seen: string[] = [];
    const obj: HandlerObject = { processTask: (c, t) => void seen.push(`${c.taskId}:${t.type}`) };
    const mux = new ServeMux().handle('report:daily', obj);
    await mux.processTask(ctx, newTask('report:daily'));
    expect(seen).toEqual(['id-1:report:daily']);
  });
});

describe('ServeMux registration errors (asynq panics with these texts)', () => {
  it.each(['', ' ', '\t\n'])('blank pattern %j → asynq: invalid pattern', (p) => {
    expect(() => new ServeMux().handleFunc(p, () => {})).toThrow(/^asynq: invalid pattern$/);
  });

  it('duplicate pattern → asynq: multiple registrations for <pattern>', () => {
    const mux = new ServeMux().handleFunc('email:welcome', () => {});
    expect(() => mux.handleFunc('email:welcome', () => {})).toThrow(/^asynq: multiple registrations for email:welcome$/);
    expect(() => mux.handle('email:welcome', { processTask: () => {} })).toThrow('asynq: multiple registrations for email:welcome');
  });

  it('a pattern differing only by whitespace is a different pattern', () => {
    const mux = new ServeMux().handleFunc('email', () => {});
    expect(() => mux.handleFunc('email ', () => {})).not.toThrow();
  });

  it('missing handler → asynq: nil handler', () => {
    expect(() => new ServeMux().handle('x', null)).toThrow(/^asynq: nil handler$/);
    expect(() => new ServeMux().handleFunc('x', undefined)).toThrow(/^asynq: nil handler$/);
  });

  it('checks a blank pattern before a missing handler, as asynq does', () => {
    expect(() => new ServeMux().handle('', null)).toThrow('asynq: invalid pattern');
  });
});

describe('not found', () => {
  it.each([
    ['report:new', 'handler not found for task "report:new"'],
    ['with "quotes"', 'handler not found for task "with \\"quotes\\""'],
    ['tab\there', 'handler not found for task "tab\\there"'],
    ['', 'handler not found for task ""'],
  ])('%j fails with %s', async (type, text) => {
    const err = await Promise.resolve()
      .then(() => new ServeMux().processTask(ctx, newTask(type)))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HandlerNotFoundError);
    expect((err as Error).message).toBe(text);
    expect(isHandlerNotFound(err)).toBe(true);
  });

  it('is recognised through a cause chain, and only the not-found error is', () => {
    const inner = new HandlerNotFoundError('x');
    expect(isHandlerNotFound(new Error('outer', { cause: inner }))).toBe(true);
    expect(isHandlerNotFound(new Error('handler not found for task "x"'))).toBe(false);
    expect(isHandlerNotFound('handler not found for task "x"')).toBe(false);
    expect(isHandlerNotFound(null)).toBe(false);
  });

  it('is ErrHandlerNotFound for errorIs, as Go code would test it with errors.Is, wrapped or not', () => {
    const err = new HandlerNotFoundError('x');
    expect([errorIs(err, ErrHandlerNotFound), errorIs(new Error('outer', { cause: err }), ErrHandlerNotFound)]).toEqual([true, true]);
    expect(errorIs(new Error('handler not found for task "x"'), ErrHandlerNotFound)).toBe(false);
    expect(err.message).toBe('handler not found for task "x"');
  });

  it('NotFound can be delegated to by a handler', async () => {
    const mux = new ServeMux().handleFunc('aggregated', (c, t) => (t.type === 'aggregated' ? undefined : notFound(c, t)));
    await expect(Promise.resolve(mux.processTask(ctx, newTask('aggregated')))).resolves.toBeUndefined();
    await expect(Promise.resolve().then(() => mux.processTask(ctx, newTask('aggregatedX')))).rejects.toThrow(
      'handler not found for task "aggregatedX"',
    );
  });
});

describe('middleware', () => {
  const tracing = (log: string[], name: string): Middleware => (next) => ({
    async processTask(c, t) {
      log.push(`${name}>`);
      try {
        await next.processTask(c, t);
      } finally {
        log.push(`<${name}`);
      }
    },
  });

  it('runs in the order added, the first outermost, around a handler', async () => {
    const log: string[] = [];
    const mux = new ServeMux().handleFunc('t', () => void log.push('handler'));
    mux.use(tracing(log, 'a'), tracing(log, 'b'));
    mux.use(tracing(log, 'c'));
    await mux.processTask(ctx, newTask('t'));
    expect(log).toEqual(['a>', 'b>', 'c>', 'handler', '<c', '<b', '<a']);
  });

  it('wraps the not-found handler too, in the same order, and sees its error', async () => {
    const log: string[] = [];
    const seen: unknown[] = [];
    const mux = new ServeMux().handleFunc('known', () => {});
    mux.use(tracing(log, 'outer'), (next) => ({
      async processTask(c, t) {
        log.push('inner>');
        try {
          await next.processTask(c, t);
        } catch (err) {
          seen.push(err);
          throw err;
        }
      },
    }));
    const { handler, pattern } = mux.handler(newTask('unknown'));
    expect(pattern).toBe('');
    await expect(Promise.resolve().then(() => handler.processTask(ctx, newTask('unknown')))).rejects.toThrow(
      'handler not found for task "unknown"',
    );
    expect(log).toEqual(['outer>', 'inner>', '<outer']);
    expect(seen).toHaveLength(1);
    expect(isHandlerNotFound(seen[0])).toBe(true);
  });

  it('applies to handlers registered after use()', async () => {
    const log: string[] = [];
    const mux = new ServeMux().use(tracing(log, 'm'));
    mux.handleFunc('late', () => void log.push('late'));
    await mux.processTask(ctx, newTask('late'));
    expect(log).toEqual(['m>', 'late', '<m']);
  });

  it('can short-circuit the handler', async () => {
    const log: string[] = [];
    const mux = new ServeMux().handleFunc('t', () => void log.push('handler'));
    mux.use(() => ({ processTask: () => void log.push('blocked') }));
    await mux.processTask(ctx, newTask('t'));
    expect(log).toEqual(['blocked']);
  });
});

describe('task context', () => {
  it('gives handlers and middleware the task ID, queue, retry count and max retry', async () => {
    const seen: unknown[] = [];
    const mux = new ServeMux()
      .use((next) => ({
        processTask(c, t) {
          seen.push(['mw', c.taskId, c.queue, c.retryCount, c.maxRetry]);
          return next.processTask(c, t);
        },
      }))
      .handleFunc('t', (c) => void seen.push(['h', c.taskId, c.queue, c.retryCount, c.maxRetry, c.signal.aborted]));
    await mux.processTask(ctx, newTask('t'));
    expect(seen).toEqual([
      ['mw', 'id-1', 'default', 2, 25],
      ['h', 'id-1', 'default', 2, 25, false],
    ]);
  });
});

describe('handler(task) for debugging', () => {
  it('returns the pattern that would run and a callable handler, without running it', async () => {
    const { mux, calls } = recordingMux(['email']);
    const { handler, pattern } = mux.handler(newTask('email:digest'));
    expect(pattern).toBe('email');
    expect(calls).toEqual([]);
    await handler.processTask(ctx, newTask('email:digest'));
    expect(calls).toEqual(['email']);
  });
});
