/**
 * The address of a live snapshot view (GET /api/snapshot): the shell alone, or the shell plus
 * one page of the overview's queue table. Hook-free, so server components build the very same
 * address the browser then polls.
 */
import type { LiveSnapshotDto } from '@/lib/contract/live-snapshot';
import { apiPaths } from '@/lib/paths';

export interface QueueTableView {
  page: number;
  /** Queue-name filter ('' = every queue). */
  q: string;
}

export const liveSnapshotUrl = (table: QueueTableView | null): string =>
  table ? apiPaths.snapshot({ table: '1', page: table.page > 1 ? table.page : undefined, q: table.q }) : apiPaths.snapshot();

/** The stream of the same view, ticking every `everyMs` (the viewer's poll interval). */
export const liveStreamUrl = (table: QueueTableView | null, everyMs: number): string =>
  table ? apiPaths.snapshotStream({ table: '1', page: table.page > 1 ? table.page : undefined, q: table.q, every: everyMs }) : apiPaths.snapshotStream({ every: everyMs });

/** What the server hands a live component for its first render, and the poller to start from. */
export interface LiveSeed {
  snapshot: LiveSnapshotDto;
  etag: string;
  url: string;
}
