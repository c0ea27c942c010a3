import 'server-only';
import type { ActResult } from '@asynqlens/asynq';
import type {
  SearchActBody,
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
 * One page of a task search. Reads at most 5,000 tasks from Redis (1,000 per call) and stops
 * early once `size` matches are found; `signal` (the client gone) stops it between calls.
 */
export async function search(q: SearchQuery, signal: AbortSignal): Promise<SearchPageDto> {
  const page = await getInspector().search(q.filter, { cursor: q.cursor, size: q.size, signal });
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
  return progressStream<SearchActProgressDto, SearchPreviewDto | SearchActResultDto>(async (onProgress) =>
    toDto(await getInspector().actOnMatches(body.filter, body.action, body.preview, { signal, onProgress }), body.preview),
  );
}
