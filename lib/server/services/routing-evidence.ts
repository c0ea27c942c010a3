import 'server-only';
import type { FleetServer, NotFoundSpan, ServerWithWorkers, TypeSeen } from '@asynqlens/asynq';
import { getInspector } from '../redis/client';
import { shared } from '../cache/snapshot';
import { failureScan, typeCensus } from '../jobs/triage-scans';

/**
 * What Redis records about a fleet, for the verdict engine, read without a scan of its own: the
 * live servers (two round trips, shared for ASYNQLENS_SNAPSHOT_MS) and the results of the
 * shared failure scan and type census (the same scans the Failures and Routing pages poll). A
 * scan that has not finished is not half-read: the last finished result answers until the new
 * one finishes, so a verdict never flickers while a scan restarts (after a re-run, every 10 s).
 */
export interface RedisEvidence {
  servers: FleetServer[];
  notFound: NotFoundSpan[];
  types: TypeSeen[];
  /** Both scans have finished at least once. */
  complete: boolean;
  /** When the older of the two finished results was read; null before both finished once. */
  readAt: Date | null;
}

interface Kept<T> {
  at: Date;
  value: T;
}

const g = globalThis as typeof globalThis & { asynqlensVerdictEvidence?: { notFound: Kept<NotFoundSpan[]> | null; types: Kept<TypeSeen[]> | null } };
const kept = (g.asynqlensVerdictEvidence ??= { notFound: null, types: null });

/** Forgets the kept scan results (tests, and a Redis that changed under the console). */
export function forgetVerdictEvidence(): void {
  kept.notFound = null;
  kept.types = null;
}

const fleetServers = new WeakMap<readonly ServerWithWorkers[], FleetServer[]>();
/** The snapshot's servers as the engine takes them; the same snapshot gives the same array. */
function fleetServersOf(list: readonly ServerWithWorkers[]): FleetServer[] {
  let out = fleetServers.get(list);
  if (!out) fleetServers.set(list, (out = list.map(toFleetServer)));
  return out;
}

export const toFleetServer = (s: ServerWithWorkers): FleetServer => ({
  host: s.host,
  pid: s.pid,
  serverId: s.serverId,
  queues: s.queues,
  startedAt: s.startedAt,
  patterns: s.patterns ?? null,
  inFlight: s.workers.map((w) => ({ queue: w.queue, taskType: w.taskType })),
});

async function notFoundSpans(waitMs: number): Promise<void> {
  const job = await failureScan(undefined, waitMs);
  // Pass 1 (retry and archived) is all the verdicts need; pass 2 counts waiting tasks.
  if (job.scan.progress().phase === 'failures') return;
  if (kept.notFound && kept.notFound.at >= job.startedAt) return;
  kept.notFound = {
    at: job.startedAt,
    value: job.scan.groups.notFoundGroups().map((n) => ({ queue: n.queue, taskType: n.taskType, retry: n.retry, archived: n.archived, first: n.first, last: n.last })),
  };
}

async function typesSeen(waitMs: number): Promise<void> {
  const job = await typeCensus(undefined, undefined, waitMs);
  const r = job.scan.report();
  if (!r.complete) return;
  if (kept.types && kept.types.at >= job.startedAt) return;
  kept.types = {
    at: job.startedAt,
    value: r.types.map((t) => ({ queue: t.queue, taskType: t.taskType, completed: t.counts.completed, aggregating: t.counts.aggregating, total: t.total })),
  };
}

/** The evidence, waiting up to `waitMs` for scans that have no finished result yet. */
export async function readRedisEvidence(waitMs: number): Promise<RedisEvidence> {
  const [servers] = await Promise.all([
    shared('triage:servers', () => getInspector().servers()),
    notFoundSpans(kept.notFound ? 0 : waitMs),
    typesSeen(kept.types ? 0 : waitMs),
  ]);
  const complete = kept.notFound !== null && kept.types !== null;
  return {
    servers: fleetServersOf(servers),
    notFound: kept.notFound?.value ?? [],
    types: kept.types?.value ?? [],
    complete,
    readAt: complete ? new Date(Math.min(kept.notFound!.at.getTime(), kept.types!.at.getTime())) : null,
  };
}
