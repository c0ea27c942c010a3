/**
 * Accumulates failed (retry and archived) tasks into groups: one per error signature for the
 * failures view, and one per queue and task type for asynq's not-found error. Memory is
 * bounded: a fixed number of samples per group and at most MAX_GROUPS signatures.
 */
import { byName } from '../compare';
import { isHandlerNotFoundError, notFoundExplanation } from './not-found';
import { errorSignature, MAX_SIGNATURE_LENGTH } from './signature';

/** Sample task IDs kept per group. */
export const SAMPLE_IDS = 10;
/** Distinct signatures tracked; tasks with further signatures are only counted. */
export const MAX_GROUPS = 10_000;
const MAX_TYPES_PER_GROUP = 50;
const EXAMPLE_LENGTH = MAX_SIGNATURE_LENGTH * 8;

/** The two states a failed task waits in: retry (another attempt is due) or archived (no more). */
export type FailedState = 'retry' | 'archived';

/** One failed task, as the scan reads it from its msg. */
export interface FailedTask {
  queue: string;
  id: string;
  state: FailedState;
  type: string;
  retried: number;
  errorMsg: string;
  lastFailedAt: number;
}

interface Span {
  /** Unix seconds of the earliest and latest last_failed_at; 0 when none was set. */
  first: number;
  last: number;
}

/** The tasks of one error signature, across queues. */
export interface FailureGroup extends Span {
  signature: string;
  /** The task type when this is asynq's not-found error (the signature is then the exact message). */
  notFoundType: string | null;
  retry: number;
  archived: number;
  retriesSpent: number;
  /** Per queue: tasks in retry and archived. */
  queues: Map<string, { retry: number; archived: number }>;
  /** Tasks per type (the first 50 types seen; `otherTypes` counts the rest). */
  taskTypes: Map<string, number>;
  otherTypes: number;
  samples: { queue: string; id: string; state: FailedState }[];
  /** The most recent raw message (cut at 4,000 characters). */
  example: string;
  exampleAt: number;
}

/** The not-found failures of one task type in one queue. */
export interface NotFoundGroup extends Span {
  queue: string;
  taskType: string;
  retry: number;
  archived: number;
  /** Tasks of this type still waiting: they will fail the same way. Filled in by a later pass. */
  pending: number;
  scheduled: number;
  retriesSpent: number;
  sampleTaskIds: string[];
  message: string;
  explanation: string;
}

function widen(s: Span, t: number): void {
  if (t <= 0) return;
  if (s.first === 0 || t < s.first) s.first = t;
  if (t > s.last) s.last = t;
}

/**
 * Both groupings at once, fed one task at a time by {@link add}: O(1) per task, memory bounded
 * by MAX_GROUPS signatures (plus one entry per not-found queue and type) and 10 samples each.
 */
export class FailureGroups {
  readonly bySignature = new Map<string, FailureGroup>();
  readonly notFound = new Map<string, NotFoundGroup>();
  /** Tasks whose signature came after MAX_GROUPS others (counted, not grouped). */
  ungrouped = 0;

  /** Counts one retry or archived task into its signature group (and its not-found group). */
  add(t: FailedTask): void {
    const nf = isHandlerNotFoundError(t.errorMsg, t.type);
    if (nf) this.addNotFound(t);
    const signature = nf ? t.errorMsg : errorSignature(t.errorMsg);
    let g = this.bySignature.get(signature);
    if (!g) {
      if (this.bySignature.size >= MAX_GROUPS) {
        this.ungrouped++;
        return;
      }
      g = { signature, notFoundType: nf ? t.type : null, retry: 0, archived: 0, retriesSpent: 0, queues: new Map(), taskTypes: new Map(), otherTypes: 0, samples: [], example: '', exampleAt: -1, first: 0, last: 0 };
      this.bySignature.set(signature, g);
    }
    g[t.state]++;
    g.retriesSpent += Math.max(0, t.retried);
    const q = g.queues.get(t.queue) ?? { retry: 0, archived: 0 };
    q[t.state]++;
    g.queues.set(t.queue, q);
    if (g.taskTypes.has(t.type) || g.taskTypes.size < MAX_TYPES_PER_GROUP) g.taskTypes.set(t.type, (g.taskTypes.get(t.type) ?? 0) + 1);
    else g.otherTypes++;
    if (g.samples.length < SAMPLE_IDS) g.samples.push({ queue: t.queue, id: t.id, state: t.state });
    if (t.lastFailedAt > g.exampleAt) {
      g.example = t.errorMsg.length > EXAMPLE_LENGTH ? `${t.errorMsg.slice(0, EXAMPLE_LENGTH)}…` : t.errorMsg;
      g.exampleAt = t.lastFailedAt;
    }
    widen(g, t.lastFailedAt);
  }

  private addNotFound(t: FailedTask): void {
    const key = JSON.stringify([t.queue, t.type]);
    let g = this.notFound.get(key);
    if (!g) {
      g = { queue: t.queue, taskType: t.type, retry: 0, archived: 0, pending: 0, scheduled: 0, retriesSpent: 0, sampleTaskIds: [], message: t.errorMsg, explanation: notFoundExplanation(t.type), first: 0, last: 0 };
      this.notFound.set(key, g);
    }
    g[t.state]++;
    g.retriesSpent += Math.max(0, t.retried);
    if (g.sampleTaskIds.length < SAMPLE_IDS) g.sampleTaskIds.push(t.id);
    widen(g, t.lastFailedAt);
  }

  /** The not-found types of each queue, for the pass that counts their waiting tasks. */
  notFoundTypesByQueue(): Map<string, Map<string, NotFoundGroup>> {
    const out = new Map<string, Map<string, NotFoundGroup>>();
    for (const g of this.notFound.values()) {
      const m = out.get(g.queue) ?? new Map<string, NotFoundGroup>();
      m.set(g.taskType, g);
      out.set(g.queue, m);
    }
    return out;
  }

  /** Not-found groups, largest first (then queue, type). */
  notFoundGroups(): NotFoundGroup[] {
    const size = (g: NotFoundGroup) => g.retry + g.archived;
    return [...this.notFound.values()].sort((a, b) => size(b) - size(a) || byName(a.queue, b.queue) || byName(a.taskType, b.taskType));
  }

  /** Up to `limit` groups: the not-found ones first, each part largest first. */
  failureGroups(limit: number): FailureGroup[] {
    const size = (g: FailureGroup) => g.retry + g.archived;
    return [...this.bySignature.values()]
      .sort((a, b) => Number(b.notFoundType !== null) - Number(a.notFoundType !== null) || size(b) - size(a) || byName(a.signature, b.signature))
      .slice(0, limit);
  }
}
