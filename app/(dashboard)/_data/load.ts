import 'server-only';
import { connection } from 'next/server';
import type { HistoryDto, QueueStatsDto } from '@/lib/contract/queues';
import type { ActiveRerunDto, HandlerNotFoundDto, NotFoundGroupDto } from '@/lib/contract/triage';
import { liveSnapshotUrl, type LiveSeed, type QueueTableView } from '@/lib/query/live-view';
import { liveSnapshot, SHELL_VIEW } from '@/lib/server/cache/live-snapshot';
import { cachedView } from '@/lib/server/cache/views';
import { toErrorResponse } from '@/lib/server/http/errors';
import { checkRedis } from '@/lib/server/redis/stall';
import { getHistory, listQueues } from '@/lib/server/services/queues';
import type { RoutingVerdictDto } from '@/lib/contract/routing-verdicts';
import { activeReruns } from '@/lib/server/jobs/reruns';
import { getRoutingVerdicts } from '@/lib/server/services/routing-verdicts';
import { getHandlerNotFound } from '@/lib/server/services/triage';

/**
 * What the server-rendered parts (the shell and the overview) read at a visit, through the same
 * services the API routes use. Server components never fetch our own /api.
 */

export interface LoadError {
  code: string;
  message: string;
}

export type Loaded<T> = { ok: true; data: T } | { ok: false; error: LoadError };

/** The API's own error mapping, so a page says exactly what /api would (`redis_unavailable` …). */
async function toLoadError(err: unknown): Promise<LoadError> {
  const body = (await toErrorResponse(err).json()) as { error: LoadError };
  return { code: body.error.code, message: body.error.message };
}

/**
 * Runs a read the way a routed request does: while Redis is marked stalled it fails at once
 * (the page shows the banner instead of waiting out the command timeout on every refresh).
 */
async function attempt<T>(read: () => Promise<T>): Promise<Loaded<T>> {
  try {
    await checkRedis();
    return { ok: true, data: await read() };
  } catch (err) {
    return { ok: false, error: await toLoadError(err) };
  }
}

/**
 * The live snapshot's first render: the shell's view (`table` null) or the overview's, the very
 * bytes /api/snapshot serves this tick, with the address and ETag the browser then polls.
 */
export async function loadLive(table: QueueTableView | null): Promise<LiveSeed> {
  await connection(); // request time only: never at build, when there is no Redis
  const snap = await liveSnapshot(table ? { table: true, ...table } : SHELL_VIEW);
  return { snapshot: snap.dto, etag: snap.etag, url: liveSnapshotUrl(table) };
}

/** Every queue's stats: the snapshot the API shares between all viewers (2 round trips). */
export async function loadQueues(): Promise<Loaded<QueueStatsDto[]>> {
  await connection();
  return attempt(async () => (await listQueues()).queues);
}

/**
 * Past days' counters change slowly but would otherwise be read on every visit of every
 * viewer. No mutation of the console changes them, so they outlive mutations.
 */
const historyMemo = cachedView<HistoryDto>({ name: 'page:history', ttlMs: 60_000, changedByMutations: false });

/**
 * Daily counters of `queues`, summed per date. Past days cannot change, so they are memoised
 * for a minute; today's figures come from the live stats instead (see combineHistory).
 */
export async function loadHistory(queues: string[], days: number): Promise<Loaded<HistoryDto[]>> {
  await connection();
  return attempt(() => Promise.all(queues.map((q) => historyMemo(`${q}\n${days}`, () => getHistory(q, days)))));
}

/**
 * Only a finished scan's answer is kept: a running scan is asked again at the next refresh. Its
 * key holds the counts a mutation would change, so mutations need not clear it.
 */
const notFoundMemo = cachedView<HandlerNotFoundDto>({ name: 'page:not-found', ttlMs: 60_000, changedByMutations: false, keep: (d) => d.complete });

/** The banner's groups, and whether they are the last finished scan's while a new one recounts. */
export interface NotFoundBanner {
  groups: NotFoundGroupDto[];
  /** A newer scan is running (after a re-run or new failures): `groups` is the last finished one. */
  recounting: boolean;
  /** Re-runs in progress in this process, with how far each got. */
  reruns: ActiveRerunDto[];
  /** The routing verdict of each group's (queue, type): what the banner says about it. */
  verdicts: RoutingVerdictDto[];
}

/** The verdicts of the banner's pairs: the evidence the server keeps, waiting at most a second for its scans (the banner streams in). */
async function verdictsOf(groups: NotFoundGroupDto[]): Promise<RoutingVerdictDto[]> {
  if (groups.length === 0) return [];
  const all = (await getRoutingVerdicts({ wait: 1000 })).verdicts;
  const wanted = new Set(groups.map((g) => `${g.queue}\n${g.taskType}`));
  return all.filter((v) => wanted.has(`${v.queue}\n${v.taskType}`));
}

/**
 * The last finished scan's groups. An unfinished scan lists only the tasks read so far, so a
 * type would drop out of the banner while the scan recounts (after a re-run, ~20 s on a big
 * archive) and come back: the banner shows the last finished answer until the new one is done.
 */
let lastFinished: NotFoundGroupDto[] | null = null;

/**
 * The handler-not-found groups for the overview's callout: the service (and the shared scan)
 * behind GET /api/handler-not-found. The scan reads every retry and archived task, so it runs
 * only when some queue has some, and an answer is reused while every queue's retry and archived
 * counts stay as they were (a minute at most): a re-run, or a new failure, rescans at the next
 * refresh. It waits at most a second; the callout streams in beside the overview.
 */
export async function loadNotFound(queues: QueueStatsDto[]): Promise<Loaded<NotFoundBanner>> {
  await connection();
  const reruns = await activeReruns();
  const failed = queues.filter((q) => q.retry + q.archived > 0).map((q) => [q.queue, q.retry, q.archived]);
  if (failed.length === 0) {
    lastFinished = [];
    return { ok: true, data: { groups: [], recounting: false, reruns, verdicts: [] } };
  }
  return attempt(async () => {
    const scan = await notFoundMemo(JSON.stringify(failed), () => getHandlerNotFound({ wait: 1000 }));
    if (scan.complete) lastFinished = scan.groups;
    const recounting = !scan.complete && lastFinished !== null;
    const groups = recounting && lastFinished ? lastFinished : scan.groups;
    return { groups, recounting, reruns, verdicts: await verdictsOf(groups) };
  });
}
