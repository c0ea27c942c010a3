import { liveStreamQuerySchema } from '@/lib/contract/live-snapshot';
import { liveStreams } from '@/lib/server/cache/live-stream';
import { route } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

/**
 * The live snapshot pushed instead of polled: server-sent events, one per changed tick, the
 * same bytes for every subscriber of a view (lib/server/cache/live-stream.ts). A reconnect
 * naming the current ETag in Last-Event-ID is sent nothing until the next change. Past the
 * process' limits a 503 `stream_limit`: the browser then polls GET /api/snapshot.
 */
export const GET = route({ query: liveStreamQuerySchema, redisGate: false }, ({ query, req, signal }) => {
  const view = { table: query.table === '1', page: query.page, q: query.q ?? '' };
  const body = liveStreams().subscribe(view, query.every, req.headers.get('last-event-id'), signal);
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: a compressing proxy would hold events back until its buffer fills.
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      // The server's clock: the browser ages latencies between events by it.
      'x-now': String(Date.now()),
    },
  });
});
