import 'server-only';
import { createHash } from 'node:crypto';
import type { HealthDto } from '@/lib/contract/servers';
import type { QueueStatsDto } from '@/lib/contract/queues';
import { QUEUE_TABLE_PAGE_SIZE, SIDEBAR_MAX_QUEUES, type LiveSnapshotDto, type QueueTotalsDto } from '@/lib/contract/live-snapshot';
import { env } from '../config/env';
import { toApiError } from '../http/errors';
import { checkRedis } from '../redis/stall';
import { getHealth } from '../services/health';
import { listQueues, queuesMatching } from '../services/queues';
import { cachedView } from './views';

/**
 * The live snapshot behind every open tab (GET /api/snapshot, and the first render of the shell
 * and the overview): built once per tick per view, serialised once, and the same bytes and ETag
 * handed to every viewer. A view is the shell alone, or the shell plus one page of the overview's
 * queue table (page and filter): the table is sliced here, so a tab never receives thousands of
 * rows and the core keeps answering one question, every queue's stats.
 *
 * Redis cost per tick: the queue stats of the API's shared snapshot (listQueues, shared with
 * /api/queues: 2 round trips up to 40-65 queues, then chunked calls of about 1 ms), whatever
 * the number of tabs and views; INFO server once a minute for the version.
 */

export interface LiveView {
  /** Include a page of the queue table. */
  table: boolean;
  page: number;
  /** Case-insensitive substring of the queue name ('' = every queue). */
  q: string;
}

export const SHELL_VIEW: LiveView = { table: false, page: 1, q: '' };

export interface LiveSnapshot {
  dto: LiveSnapshotDto;
  /** `dto` as JSON, serialised once per tick. */
  body: string;
  /**
   * A strong ETag over what a viewer sees change: the counts, not the read's time, latency or
   * memory samples, which move on every read (the client ages latency itself from `at`). An
   * unchanged tick is then a 304 of a few hundred bytes.
   */
  etag: string;
}

const viewKey = (v: LiveView) => (v.table ? `t\n${v.page}\n${v.q}` : 's');

/** The version only changes with a Redis upgrade: INFO server once a minute is plenty. */
const healthMemo = cachedView<HealthDto>({ name: 'live:health', ttlMs: 60_000, changedByMutations: false });
const views = cachedView<LiveSnapshot>({ name: 'live:snapshot', ttlMs: () => env().ASYNQLENS_SNAPSHOT_MS, changedByMutations: true, maxEntries: 200 });

/** The snapshot of `view` for this tick: read, built and serialised by the first viewer to ask. */
export function liveSnapshot(view: LiveView): Promise<LiveSnapshot> {
  return views(viewKey(view), () => build(view));
}

/** The API's own error mapping, so the banner says exactly what /api would (`redis_unavailable` …). */
function asError(err: unknown): { code: string; message: string } {
  const { code, message } = toApiError(err);
  return { code, message };
}

async function build(view: LiveView): Promise<LiveSnapshot> {
  const at = Date.now();
  let queues: QueueStatsDto[];
  try {
    // While Redis is marked stalled this fails at once: the banner shows instead of every tick
    // waiting out the command timeout.
    await checkRedis();
    queues = (await listQueues()).queues;
  } catch (err) {
    return serialise({ at, error: asError(err), health: null, totals: null, sidebar: { queues: [], attentionOnly: false }, table: null });
  }
  const health = await healthMemo('health', getHealth).catch(() => null);
  return serialise({ at, error: null, health, totals: totals(queues), sidebar: sidebar(queues), table: view.table ? table(queues, view) : null });
}

function serialise(dto: LiveSnapshotDto): LiveSnapshot {
  const body = JSON.stringify(dto);
  const steady = JSON.stringify(dto, (key, value: unknown) => (key === 'at' || key === 'timestamp' || key === 'latencySeconds' || key === 'memoryUsageBytes' ? undefined : value));
  const etag = `"${createHash('sha1').update(steady).digest('base64url').slice(0, 22)}"`;
  return { dto, body, etag };
}

function totals(queues: QueueStatsDto[]): QueueTotalsDto {
  const t: QueueTotalsDto = {
    queues: queues.length,
    paused: 0,
    size: 0,
    pending: 0,
    active: 0,
    scheduled: 0,
    retry: 0,
    archived: 0,
    completed: 0,
    aggregating: 0,
    processed: 0,
    failed: 0,
    memoryUsageBytes: null,
    oldest: null,
  };
  for (const q of queues) {
    if (q.paused) t.paused++;
    t.size += q.size;
    t.pending += q.pending;
    t.active += q.active;
    t.scheduled += q.scheduled;
    t.retry += q.retry;
    t.archived += q.archived;
    t.completed += q.completed;
    t.aggregating += q.aggregating;
    t.processed += q.processed;
    t.failed += q.failed;
    if (q.memoryUsageBytes !== null) t.memoryUsageBytes = (t.memoryUsageBytes ?? 0) + q.memoryUsageBytes;
    if (q.pending > 0 && q.latencySeconds > (t.oldest?.latencySeconds ?? -1)) t.oldest = { queue: q.queue, latencySeconds: q.latencySeconds };
  }
  return t;
}

const failing = (q: QueueStatsDto) => q.retry > 0 || q.archived > 0 || q.problem !== null;

/**
 * Every queue while they fit; past SIDEBAR_MAX_QUEUES, the ones needing attention (failing,
 * then paused), bounded too: the overview's table, paged and filtered, lists the rest.
 */
function sidebar(queues: QueueStatsDto[]): LiveSnapshotDto['sidebar'] {
  const row = (q: QueueStatsDto) => ({ queue: q.queue, size: q.size, paused: q.paused, failing: failing(q) });
  if (queues.length <= SIDEBAR_MAX_QUEUES) return { queues: queues.map(row), attentionOnly: false };
  const attention = [...queues.filter(failing), ...queues.filter((q) => q.paused && !failing(q))].slice(0, SIDEBAR_MAX_QUEUES);
  return { queues: attention.map(row), attentionOnly: true };
}

function table(queues: QueueStatsDto[], view: LiveView): NonNullable<LiveSnapshotDto['table']> {
  const matching = queuesMatching(queues, view.q);
  const pages = Math.max(1, Math.ceil(matching.length / QUEUE_TABLE_PAGE_SIZE));
  const page = Math.min(view.page, pages);
  const from = (page - 1) * QUEUE_TABLE_PAGE_SIZE;
  return { rows: matching.slice(from, from + QUEUE_TABLE_PAGE_SIZE), page, pageSize: QUEUE_TABLE_PAGE_SIZE, matching: matching.length, q: view.q };
}
