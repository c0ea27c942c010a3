import 'server-only';
import { actOnMatches, isAsynqError, searchTasks, type ActResult } from '@/lib/asynq';
import type { SearchActBody, SearchActResultDto, SearchPageDto, SearchPreviewDto, SearchQuery } from '@/lib/contract/search';
import { LIST_PAYLOAD_LIMIT, toTaskDto } from '../dto/tasks';
import { getRedis } from '../redis/client';

/**
 * One page of a task search. Reads at most 5,000 tasks from Redis (1,000 per call) and stops
 * early once `size` matches are found; closing the request stops it between calls.
 */
export async function search(q: SearchQuery, signal: AbortSignal): Promise<SearchPageDto> {
  const page = await searchTasks(getRedis(), q.filter, { cursor: q.cursor, size: q.size, signal });
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
  if (preview) return { preview: true, count: r.matched, ...progress };
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
 * Counts (preview) or runs / archives / deletes every match. When the client accepts
 * `application/x-ndjson` the response streams `{"progress":{scanned,total,matched,succeeded,
 * failed}}` lines every 10,000 tasks scanned and ends with `{"result":...}` (or `{"error":...}`);
 * otherwise it answers once, at the end. Closing the request stops it between Redis calls.
 */
export async function actOnSearch(body: SearchActBody, req: Request): Promise<Response> {
  const run = async (onProgress?: (p: unknown) => void) =>
    toDto(await actOnMatches(getRedis(), body.filter, body.action, body.preview, { signal: req.signal, onProgress }), body.preview);
  if (!(req.headers.get('accept') ?? '').includes('application/x-ndjson')) return Response.json(await run());
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (v: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(v)}\n`));
      try {
        send({ result: await run((progress) => send({ progress })) });
      } catch (err) {
        const code = isAsynqError(err) ? err.kind : 'internal';
        send({ error: { code, message: err instanceof Error ? err.message : String(err) } });
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } });
}
