import 'server-only';
import {
  explainRoutes,
  isAsynqError,
  notFoundExplanation,
  assertRerunTarget,
  rerunNotFound,
  type RerunResult,
} from '@/lib/asynq';
import type {
  FailuresDto,
  FailuresQuery,
  FailureScanQuery,
  HandlerNotFoundDto,
  RerunBody,
  RerunResultDto,
  RoutingExplainDto,
  RoutingPatternsDto,
  TaskTypesDto,
  TaskTypesQuery,
} from '@/lib/contract/triage';
import { routingExplainBodySchema } from '@/lib/contract/triage';
import { HttpError } from '../http/errors';
import { assertJsonBody, assertSameSite } from '../http/guards';
import { getInspector, getRedis } from '../redis/client';
import { shared } from '../cache/snapshot';
import { invalidateViews } from '../cache/views';
import { iso, toFailureDto, toNotFoundDto } from '../dto/triage';
import { failureScan, forgetTriageScans, typeCensus } from '../jobs/triage-scans';
import { readRoutingFile } from '../config/routing-file';

const times = (j: { startedAt: Date; finishedAt: Date | null }) => ({ startedAt: iso(j.startedAt), finishedAt: iso(j.finishedAt) });

/** Not-found groups by queue and type, with the live servers listening on each queue. */
export async function getHandlerNotFound(q: FailureScanQuery): Promise<HandlerNotFoundDto> {
  const job = await failureScan(q.queue, q.wait);
  const p = job.scan.progress();
  const servers = await shared('triage:servers', () => getInspector().servers());
  return {
    complete: p.complete,
    phase: p.phase,
    scanned: p.scanned,
    total: p.total,
    skipped: p.skipped,
    ...times(job),
    queues: p.queues,
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
    scanned: p.scanned,
    total: p.total,
    skipped: p.skipped,
    ...times(job),
    queues: p.queues,
    totalGroups: g.bySignature.size,
    ungrouped: g.ungrouped,
    groups: g.failureGroups(q.limit).map((x) => toFailureDto(x, notFoundExplanation)),
  };
}

/** Task types in Redis per queue and state, with counts. */
export async function getTaskTypes(q: TaskTypesQuery): Promise<TaskTypesDto> {
  const job = await typeCensus(q.queue, q.states, q.wait);
  const r = job.scan.report();
  return { complete: r.complete, scanned: r.scanned, total: r.total, skipped: r.skipped, ...times(job), queues: r.queues, states: r.states, untracked: r.untracked, types: r.types };
}

async function readJson(req: Request): Promise<unknown> {
  try {
    return JSON.parse(await req.text()) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_argument', 'body: not valid JSON', { field: 'body' });
  }
}

/**
 * Explains routes under the given patterns. A read (allowed in read-only mode), but a POST
 * with a body, so it is refused from other sites and without a JSON content type before the
 * body is even parsed, as mutations are.
 */
export async function explainRouting(req: Request): Promise<RoutingExplainDto> {
  assertSameSite(req);
  assertJsonBody(req);
  const body = routingExplainBodySchema.parse(await readJson(req));
  return { routes: explainRoutes(body.patterns, body.taskTypes) };
}

export const getRoutingPatterns = (): Promise<RoutingPatternsDto> => readRoutingFile();

function toRerunDto(r: RerunResult): RerunResultDto {
  return {
    succeeded: r.succeeded,
    failed: r.failed.map((f) => ({ id: f.id, error: { code: f.error.kind, message: f.error.message } })),
    byState: r.byState,
    stopped: r.stopped,
  };
}

/**
 * Re-runs every not-found task of a type in a queue. With `Accept: application/x-ndjson` the
 * response streams `{"progress":{phase,state,done,total}}` lines and ends with `{"result":…}`
 * (or `{"error":…}`); otherwise it answers once, at the end. Closing the request stops it
 * between batches. Afterwards the triage scans start over: their counts are stale.
 */
export async function rerunHandlerNotFound(body: RerunBody, req: Request): Promise<Response> {
  // Before any streaming starts, so an unknown queue is a plain 404.
  await assertRerunTarget(getRedis(), body.queue);
  const run = async (onProgress?: (p: unknown) => void) => {
    try {
      return await rerunNotFound(getRedis(), body.queue, body.taskType, body.states, { signal: req.signal, ...(onProgress ? { onProgress } : {}) });
    } finally {
      forgetTriageScans();
      invalidateViews();
    }
  };
  if (!(req.headers.get('accept') ?? '').includes('application/x-ndjson')) return Response.json(toRerunDto(await run()));
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (v: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(v)}\n`));
      try {
        send({ result: toRerunDto(await run((progress) => send({ progress }))) });
      } catch (err) {
        const code = isAsynqError(err) ? err.kind : 'internal';
        send({ error: { code, message: err instanceof Error ? err.message : String(err) } });
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } });
}
