/**
 * The address of a live snapshot view (GET /api/snapshot): the shell alone, or the shell plus
 * one page of the overview's queue table. Hook-free, so server components build the very same
 * address the browser then polls.
 */
import type { LiveSnapshotDto } from '@/lib/contract/live-snapshot';
import type { QueueSortKey } from '@/lib/contract/queues';
import { apiPaths } from '@/lib/paths';

export interface QueueTableView {
  page: number;
  /** Queue-name filter ('' = every queue). */
  q: string;
  /** The column the table is ordered by, and which way (by name, ascending, by default). */
  sort: QueueSortKey;
  order: 'asc' | 'desc';
}

/** The view's own query parameters (defaults left out, so the default view keeps its address). */
const tableQuery = (t: QueueTableView) => ({
  table: '1',
  page: t.page > 1 ? t.page : undefined,
  q: t.q,
  sort: t.sort === 'name' ? undefined : t.sort,
  order: t.order === 'asc' ? undefined : t.order,
});

export const liveSnapshotUrl = (table: QueueTableView | null): string =>
  table ? apiPaths.snapshot(tableQuery(table)) : apiPaths.snapshot();

/** The stream of the same view, ticking every `everyMs` (the viewer's poll interval). */
export const liveStreamUrl = (table: QueueTableView | null, everyMs: number): string =>
  table ? apiPaths.snapshotStream({ ...tableQuery(table), every: everyMs }) : apiPaths.snapshotStream({ every: everyMs });

/** What the server hands a live component for its first render, and the poller to start from. */
export interface LiveSeed {
  snapshot: LiveSnapshotDto;
  etag: string;
  url: string;
}
