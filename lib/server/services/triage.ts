import 'server-only';
import { explainRoutes, notFoundExplanation } from '@asynqlens/asynq';
import type {
  FailuresDto,
  FailuresQuery,
  FailureScanQuery,
  HandlerNotFoundDto,
  NotFoundCountDto,
  NotFoundCountQuery,
  RerunBody,
  RerunProgressDto,
  RerunResultDto,
  RoutingExplainBody,
  RoutingExplainDto,
  RoutingPatternsDto,
  TaskTypesDto,
  TaskTypesQuery,
} from '@/lib/contract/triage';
import { withItemFailures } from '../dto/failures';
import { progressStream } from '../http/ndjson';
import { getInspector } from '../redis/client';
import { shared } from '../cache/snapshot';
import { iso } from '../dto/time';
import { toFailureDto, toNotFoundDto } from '../dto/triage';
import { failureScan, forgetTriageScans, typeCensus } from '../jobs/triage-scans';
import { readRoutingFile } from '../config/routing-file';
import { trackRerun } from '../jobs/reruns';

interface ScanProgress {
  scanned: number;
  total: number;
  skipped: number;
  unreadable: string[];
  queues: string[];
}

/** The fields every triage scan answers with: how far it got, what it passed over, and when it ran. */
const scanFields = (p: ScanProgress, j: { startedAt: Date; finishedAt: Date | null }) => ({
  scanned: p.scanned,
  total: p.total,
  skipped: p.skipped,
  unreadable: p.unreadable,
  startedAt: iso(j.startedAt),
  finishedAt: iso(j.finishedAt),
  queues: p.queues,
});

/** Not-found groups by queue and type, with the live servers listening on each queue. */
export async function getHandlerNotFound(q: FailureScanQuery): Promise<HandlerNotFoundDto> {
  const job = await failureScan(q.queue, q.wait);
  const p = job.scan.progress();
  const servers = await shared('triage:servers', () => getInspector().servers());
  return {
    complete: p.complete,
    phase: p.phase,
    ...scanFields(p, job),
    groups: job.scan.groups.notFoundGroups().map((g) => toNotFoundDto(g, servers)),
  };
}

/** Retry and archived tasks grouped by error signature, the not-found groups first. */
export async function getFailures(q: FailuresQuery): Promise<FailuresDto> {
  const job = await failureScan(q.queue, q.wait);
  const p = job.scan.progress();
  const g = job.scan.groups;
  return {
    complete: p.phase !== 'failures',
    ...scanFields(p, job),
    totalGroups: g.bySignature.size,
    ungrouped: g.ungrouped,
    groups: g.failureGroups(q.limit).map((x) => toFailureDto(x, notFoundExplanation)),
  };
}

/** Task types in Redis per queue and state, with counts. */
export async function getTaskTypes(q: TaskTypesQuery): Promise<TaskTypesDto> {
  const job = await typeCensus(q.queue, q.states, q.wait);
  const r = job.scan.report();
  return { complete: r.complete, ...scanFields(r, job), states: r.states, untracked: r.untracked, types: r.types };
}

/** Explains routes under the given patterns: a read, though a POST with a body (see its route). */
export function explainRouting(body: RoutingExplainBody): RoutingExplainDto {
  return { routes: explainRoutes(body.patterns, body.taskTypes) };
}

export const getRoutingPatterns = (): Promise<RoutingPatternsDto> => readRoutingFile();

/**
 * Re-runs every not-found task of a type in a queue, reporting `{phase, state, done, total}` as
 * it goes; `signal` stops it between batches. The queue is checked first, so an unknown one is
 * a plain 404 before any progress. Afterwards the triage scans start over: their counts are stale.
 */
export async function rerunHandlerNotFound(body: RerunBody, signal: AbortSignal) {
  const inspector = getInspector();
  await inspector.assertRerunTarget(body.queue);
  return progressStream<RerunProgressDto, RerunResultDto>(async (onProgress) => {
    const tracked = trackRerun(body.queue, body.taskType);
    const report = (p: RerunProgressDto) => {
      tracked.progress(p);
      onProgress?.(p);
    };
    try {
      return withItemFailures(await inspector.rerunNotFound(body.queue, body.taskType, body.states, { signal, onProgress: report }));
    } finally {
      await tracked.end();
      forgetTriageScans();
    }
  });
}

/**
 * What a re-run of (queue, type) would move now, read fresh (never a scan's cached answer):
 * the confirmation's count. One pass over the queue's retry and archived sets.
 */
export async function countHandlerNotFound(query: NotFoundCountQuery, signal: AbortSignal): Promise<NotFoundCountDto> {
  const counted = await getInspector().countNotFound(query.queue, query.type, ['retry', 'archived'], { signal });
  return { queue: query.queue, taskType: query.type, retry: counted.retry ?? 0, archived: counted.archived ?? 0, countedAt: new Date().toISOString() };
}
