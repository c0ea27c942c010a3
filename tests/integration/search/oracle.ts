/**
 * What a search must return, computed the slow, obvious way from Go's Inspector view of the
 * data (a GoTask list): every condition is re-implemented here from the API's documented
 * meaning, independently of lib/asynq/search.
 */
import type { GoTask } from '../../interop/go-dump';

export type Query = Record<string, string | string[]>;

const all = (v: string | string[] | undefined): string[] | null => (v === undefined ? null : Array.isArray(v) ? v : [v]);
const utf8 = new TextDecoder('utf-8', { fatal: true });

function text(t: GoTask): string | null {
  const bytes = Buffer.from(t.payloadBase64 ?? '', 'base64');
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function equalsScalar(v: unknown, want: string): boolean {
  if (typeof v === 'string') return v === want;
  if (typeof v === 'number') return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(want) && Number(want) === v;
  if (typeof v === 'boolean' || v === null) return String(v) === want;
  return false;
}

function jsonAt(node: unknown, path: string[], want: string): boolean {
  if (path.length === 0) return Array.isArray(node) ? node.some((e) => equalsScalar(e, want)) : equalsScalar(node, want);
  const [step, ...rest] = path as [string, ...string[]];
  if (Array.isArray(node)) return /^\d+$/.test(step) ? jsonAt(node[Number(step)], rest, want) : node.some((e) => jsonAt(e, path, want));
  if (node && typeof node === 'object' && step in node) return jsonAt((node as Record<string, unknown>)[step], rest, want);
  return false;
}

function inWindow(t: number, after: string | undefined, before: string | undefined): boolean {
  if (after === undefined && before === undefined) return true;
  if (t === 0) return false;
  return (after === undefined || t * 1000 >= Date.parse(after)) && (before === undefined || t * 1000 < Date.parse(before));
}

/** Whether Go's task `t` satisfies every parameter of `q`. */
export function matches(t: GoTask, q: Query): boolean {
  const one = (k: string) => all(q[k])?.[0];
  const queues = all(q.queue);
  const states = all(q.state)?.flatMap((s) => s.split(','));
  if (queues && !queues.includes(t.queue)) return false;
  if (states && !states.includes(t.state)) return false;
  if ((one('nextRunAfter') || one('nextRunBefore')) && !states && !['pending', 'scheduled', 'retry'].includes(t.state)) return false;
  const types = all(q.type);
  const prefixes = all(q.typePrefix);
  if ((types || prefixes) && !(types?.includes(t.type) || prefixes?.some((p) => t.type.startsWith(p)))) return false;
  if (one('id') !== undefined && t.id !== one('id')) return false;
  const payload = one('payload');
  if (payload !== undefined && !(text(t)?.includes(payload) ?? false)) return false;
  for (const [key, want] of Object.entries(q)) {
    if (key.startsWith('payload.')) {
      let doc: unknown;
      try {
        doc = JSON.parse(text(t) ?? '');
      } catch {
        return false;
      }
      if (!jsonAt(doc, key.slice(8).split('.'), String(want))) return false;
    }
    if (key.startsWith('header.') && t.headers?.[key.slice(7)] !== want) return false;
  }
  const error = one('error');
  if (error !== undefined && !t.lastError.includes(error)) return false;
  if (one('minRetried') !== undefined && t.retried < Number(one('minRetried'))) return false;
  return (
    inWindow(t.lastFailedAt, one('lastFailedAfter'), one('lastFailedBefore')) &&
    inWindow(t.nextProcessAt, one('nextRunAfter'), one('nextRunBefore')) &&
    inWindow(t.completedAt, one('completedAfter'), one('completedBefore'))
  );
}

export const key = (t: { queue: string; state: string; id: string }): string => `${t.queue}|${t.state}|${t.id}`;

/** The sorted keys of Go's tasks that match `q`. */
export function expected(tasks: readonly GoTask[], q: Query): string[] {
  return tasks.filter((t) => matches(t, q)).map(key).sort();
}
