import 'server-only';
import { connection } from 'next/server';
import type { HistoryDto, QueueStatsDto } from '@/lib/contract/queues';
import type { HealthDto } from '@/lib/contract/servers';
import type { HandlerNotFoundDto, NotFoundGroupDto } from '@/lib/contract/triage';
import { cachedView } from '@/lib/server/cache/views';
import { toErrorResponse } from '@/lib/server/http/errors';
import { checkRedis } from '@/lib/server/redis/stall';
import { getHistory, listQueues } from '@/lib/server/services/queues';
import { getHealth } from '@/lib/server/services/health';
import { getHandlerNotFound } from '@/lib/server/services/triage';

/**
 * What the server-rendered parts (the shell and the overview) read, through the same services
 * the API routes use. Server components never fetch our own /api.
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

/** Every queue's stats: the snapshot the API shares between all viewers (2 round trips). */
export async function loadQueues(): Promise<Loaded<QueueStatsDto[]>> {
  await connection(); // request time only: never at build, when there is no Redis
  return attempt(async () => (await listQueues()).queues);
}

/**
 * Minute-long views of reads that change slowly but would otherwise run on every refresh of
 * every open tab: the Redis version (INFO server) and past days' counters. No mutation of the
 * console changes either, so they outlive mutations.
 */
const healthMemo = cachedView<HealthDto>({ name: 'page:health', ttlMs: 60_000, changedByMutations: false });
const historyMemo = cachedView<HistoryDto>({ name: 'page:history', ttlMs: 60_000, changedByMutations: false });

/** Version and read-only mode; null while Redis cannot be reached. */
export async function loadHealth(): Promise<HealthDto | null> {
  await connection();
  const r = await attempt(() => healthMemo('health', getHealth));
  return r.ok ? r.data : null;
}

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

/**
 * The handler-not-found groups for the overview's callout: the service (and the shared scan)
 * behind GET /api/handler-not-found. The scan reads every retry and archived task, so it runs
 * only when some queue has some, and an answer is reused while every queue's retry and archived
 * counts stay as they were (a minute at most): a re-run, or a new failure, rescans at the next
 * refresh. It waits at most a second; the callout streams in beside the overview.
 */
export async function loadNotFound(queues: QueueStatsDto[]): Promise<Loaded<NotFoundGroupDto[]>> {
  await connection();
  const failed = queues.filter((q) => q.retry + q.archived > 0).map((q) => [q.queue, q.retry, q.archived]);
  if (failed.length === 0) return { ok: true, data: [] };
  return attempt(async () => (await notFoundMemo(JSON.stringify(failed), () => getHandlerNotFound({ wait: 1000 }))).groups);
}
