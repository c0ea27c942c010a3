/**
 * The search cursor: where the next request resumes, plus the progress so far. Opaque to
 * clients (base64url JSON); it names the queue and group rather than their index alone, so a
 * queue created or removed between two requests does not send the scan to the wrong place.
 */
import { invalidArgument } from '../errors';
import { TASK_STATES } from '../states';

/** A place in the scan order: queues by name, states in TASK_STATES order, groups by name. */
export interface ScanPosition {
  queue: string;
  /** Index into TASK_STATES. */
  state: number;
  /** The aggregation group, for the aggregating state; '' otherwise. */
  group: string;
  /** Tasks of that structure already examined (its listing order). */
  offset: number;
}

export interface SearchCursor {
  /** Fingerprint of the filter that produced it (filterFingerprint). */
  filter: string;
  position: ScanPosition;
  /** Tasks examined on earlier pages. */
  scanned: number;
  /** Size of the chosen structures when the search started. */
  total: number;
  /** Matches returned on earlier pages. */
  matched: number;
}

type Wire = { v: 1; f: string; q: string; s: number; g: string; o: number; n: number; t: number; m: number };

export function encodeCursor(c: SearchCursor): string {
  const { queue: q, state: s, group: g, offset: o } = c.position;
  const wire: Wire = { v: 1, f: c.filter, q, s, g, o, n: c.scanned, t: c.total, m: c.matched };
  return Buffer.from(JSON.stringify(wire)).toString('base64url');
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/**
 * Reads a cursor made for `fingerprint`. Throws invalid_argument (field `cursor`) when it is
 * not one of ours or was made for another filter.
 */
export function decodeCursor(text: string, fingerprint: string): SearchCursor {
  const bad = (why: string) => invalidArgument('searchTasks', 'cursor', `cursor: ${why}`);
  let w: Partial<Wire>;
  try {
    w = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Wire>;
  } catch {
    throw bad('not a search cursor');
  }
  if (
    typeof w !== 'object' || w === null || w.v !== 1 || typeof w.f !== 'string' || typeof w.q !== 'string' ||
    typeof w.g !== 'string' || !isCount(w.s) || w.s >= TASK_STATES.length || !isCount(w.o) ||
    !isCount(w.n) || !isCount(w.t) || !isCount(w.m)
  ) {
    throw bad('not a search cursor');
  }
  if (w.f !== fingerprint) throw bad('it belongs to a search with a different filter; start again without it');
  return { filter: w.f, position: { queue: w.q, state: w.s, group: w.g, offset: w.o }, scanned: w.n, total: w.t, matched: w.m };
}
