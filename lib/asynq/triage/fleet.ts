/**
 * What the verdict engine knows about a fleet: the evidence Redis records (live servers and the
 * queues each consumes, in-flight task types, handler-not-found failures and when, the types
 * seen completed or waiting in a group) and the patterns each worker group declares. Plain data,
 * gathered by the caller from scans it already runs; the engine (verdict.ts) does no I/O.
 */
import { ServeMux } from '../worker/serve-mux';

/** A set of servers that run one mux on the same queues, as a routing file declares it. */
export interface WorkerGroup {
  name: string;
  /** The queues its servers consume; null: every queue (the old single-list routing file). */
  queues: readonly string[] | null;
  patterns: readonly string[];
  /** Its servers run a group aggregator that emits these types (empty: none declared). */
  emits: readonly string[];
}

/** A live server, as its heartbeat describes it. */
export interface FleetServer {
  host: string;
  pid: number;
  serverId: string;
  queues: Record<string, number>;
  startedAt: Date | null;
  /** The patterns it publishes with its record (this core's task server); null when unknown. */
  patterns: readonly string[] | null;
  /** The (queue, type) of each task it is processing now. */
  inFlight: readonly { queue: string; taskType: string }[];
}

/** The handler-not-found failures of one type in one queue (failure-groups.ts's NotFoundGroup). */
export interface NotFoundSpan {
  queue: string;
  taskType: string;
  retry: number;
  archived: number;
  /** Unix seconds of the first and last failure; 0 when unknown. */
  first: number;
  last: number;
}

/** Tasks of one type in one queue that say a handler ran (completed) or that wait in a group. */
export interface TypeSeen {
  queue: string;
  taskType: string;
  completed: number;
  aggregating: number;
  /** Tasks in every state, for listing the type at all. */
  total: number;
}

export interface FleetEvidence {
  servers: readonly FleetServer[];
  notFound: readonly NotFoundSpan[];
  types: readonly TypeSeen[];
  groups: readonly WorkerGroup[];
}

/** Whether `group` consumes `queue`. */
export const consumes = (group: WorkerGroup, queue: string): boolean => group.queues === null || group.queues.includes(queue);

const muxes = new WeakMap<readonly string[], ServeMux>();

/**
 * The pattern asynq's ServeMux picks for `taskType` among `patterns` (exact, else the longest
 * string prefix), or null. Patterns asynq refuses (blank, repeated) are left out: the routing
 * file reports them. The mux is built once per list and kept while the list lives.
 */
export function routeOf(patterns: readonly string[], taskType: string): string | null {
  let mux = muxes.get(patterns);
  if (!mux) {
    mux = new ServeMux();
    for (const p of patterns) {
      try {
        mux.handle(p, () => {});
      } catch {
        // Refused by asynq's rules; reported where the list was read.
      }
    }
    muxes.set(patterns, mux);
  }
  const { pattern } = mux.handler({ type: taskType });
  return pattern === '' ? null : pattern;
}
