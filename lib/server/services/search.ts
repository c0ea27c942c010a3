import 'server-only';
import { withSearchQuery, type ActResult, type SearchFilter } from '@asynqlens/asynq';
import type {
  SearchActBody,
  SearchFilterDto,
  SearchActProgressDto,
  SearchActResultDto,
  SearchPageDto,
  SearchPreviewDto,
  SearchQuery,
} from '@/lib/contract/search';
import { LIST_PAYLOAD_LIMIT, toTaskDto } from '../dto/tasks';
import { progressStream } from '../http/ndjson';
import { getInspector } from '../redis/client';

/**
 * The core's filter: the parameters, narrowed by the search query `q` when there is one. A bad
 * query throws invalid_argument (a 400 with its offset and word) before any Redis call.
 */
function coreFilter({ q, ...filter }: SearchFilterDto): SearchFilter {
  return q === undefined ? filter : withSearchQuery(filter, q);
}

/**
 * One page of a task search. Reads at most 5,000 tasks from Redis (1,000 per call) and stops
 * early once `size` matches are found; `signal` (the client gone) stops it between calls.
 */
export async function search(q: SearchQuery, signal: AbortSignal): Promise<SearchPageDto> {
  const page = await getInspector().search(coreFilter(q.filter), { cursor: q.cursor, size: q.size, signal });
  return {
    tasks: page.tasks.map((t) => toTaskDto(t, LIST_PAYLOAD_LIMIT)),
    cursor: page.cursor,
    complete: page.cursor === null,
    scanned: page.scanned,
    total: page.total,
    matched: page.matched,
  };
}

function toDto(r: ActResult, preview: boolean): SearchPreviewDto | SearchActResultDto {
  const progress = { scanned: r.scanned, total: r.total, stopped: r.stopped };
  if (preview) return { preview: true, count: r.matched, byQueue: r.matchedByQueue, ...progress };
  return {
    preview: false,
    matched: r.matched,
    succeeded: r.succeeded,
    failed: r.failures.map((f) => ({ id: f.id, queue: f.queue, error: { code: f.error.kind, message: f.error.message } })),
    failedCount: r.failed,
    trimmed: r.trimmed,
    ...progress,
  };
}

/**
 * Counts (preview) or runs / archives / deletes every match, reporting progress every 10,000
 * tasks scanned. `signal` stops it between Redis calls.
 */
export function actOnSearch(body: SearchActBody, signal: AbortSignal) {
  const filter = coreFilter(body.filter);
  return progressStream<SearchActProgressDto, SearchPreviewDto | SearchActResultDto>(async (onProgress) =>
    toDto(await getInspector().actOnMatches(filter, body.action, body.preview, { signal, onProgress }), body.preview),
  );
}
