/**
 * The routing explainer: which registered pattern a worker would run for each task type. The
 * answer comes from the core's ServeMux itself (every pattern registered with a no-op handler,
 * then `handler(task)`), so it is the answer a worker gives, not a re-implementation of it.
 */
import { goQuote, invalidArgument } from '../errors';
import { ServeMux } from '../worker/serve-mux';

export type RouteMatch = 'exact' | 'prefix' | 'none';

export interface Route {
  taskType: string;
  /** The pattern whose handler runs; null when none matches (asynq's NotFoundHandler runs). */
  pattern: string | null;
  match: RouteMatch;
  /** Set for a prefix match that does not end at a `:` boundary of the type. */
  warning: string | null;
  /** What happens to tasks of this type, in plain words. */
  explanation: string;
}

const noop = (): void => {};

/**
 * A mux with `patterns` registered, in order. Throws invalid_argument (field `patterns.<i>`)
 * with asynq's own panic text: `asynq: invalid pattern` for a blank one,
 * `asynq: multiple registrations for <pattern>` for a repeat.
 */
export function buildMux(patterns: readonly string[]): ServeMux {
  const mux = new ServeMux();
  patterns.forEach((p, i) => {
    try {
      mux.handle(p, noop);
    } catch (err) {
      const e = invalidArgument('explainRoutes', `patterns.${i}`, err instanceof Error ? err.message : String(err));
      e.details.pattern = p;
      throw e;
    }
  });
  return mux;
}

/** Whether a prefix match of `pattern` on `type` ends where a `:` segment of the type does. */
function onSegmentBoundary(pattern: string, type: string): boolean {
  return pattern.endsWith(':') || type[pattern.length] === ':';
}

function describe(type: string, pattern: string | null): Omit<Route, 'taskType' | 'pattern'> {
  const t = goQuote(type);
  if (pattern === null) {
    return {
      match: 'none',
      warning: null,
      explanation: `No pattern matches ${t}: a worker with these patterns fails every such task with handler not found for task ${t}, retries it and finally archives it.`,
    };
  }
  const p = goQuote(pattern);
  if (pattern === type) return { match: 'exact', warning: null, explanation: `Registered exactly: the handler of ${p} runs.` };
  const warning = onSegmentBoundary(pattern, type)
    ? null
    : `${p} catches ${t} only because the text starts the same: asynq matches plain string prefixes, not ":" segments, so ${p} also takes types like ${goQuote(`${pattern}extra`)}. If ${t} is not meant for that handler, register it exactly or end the pattern with ":" (${goQuote(`${pattern}:`)}).`;
  return { match: 'prefix', warning, explanation: `No exact registration; the longest matching prefix ${p} runs its handler.` };
}

/**
 * Explains the route of each type under `patterns`. Throws invalid_argument as
 * {@link buildMux} does. No I/O.
 */
export function explainRoutes(patterns: readonly string[], taskTypes: readonly string[]): Route[] {
  const mux = buildMux(patterns);
  return taskTypes.map((taskType) => {
    // ServeMux answers '' for "no match": no registered pattern can be blank.
    const { pattern } = mux.handler({ type: taskType });
    const matched = pattern === '' ? null : pattern;
    return { taskType, pattern: matched, ...describe(taskType, matched) };
  });
}
