import { liveSnapshotQuerySchema } from '@/lib/contract/live-snapshot';
import { liveSnapshot } from '@/lib/server/cache/live-snapshot';
import { route } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

/**
 * The live snapshot every open tab polls: the same bytes and ETag for every viewer of a view in
 * a tick, and a 304 (no body) when the viewer already has them. Redis being down is part of the
 * answer (its `error`), not a 503: the banner reads it from here.
 */
export const GET = route({ query: liveSnapshotQuerySchema, redisGate: false }, async ({ query, req }) => {
  const snap = await liveSnapshot({ table: query.table === '1', page: query.page, q: query.q ?? '' });
  // `at` travels in a header too, so a 304 still tells the client how old its copy's latency is;
  // `x-now` lets every tab poll on the server's clock, in step, so they share each tick.
  const headers = { etag: snap.etag, 'cache-control': 'no-cache', 'x-snapshot-at': String(snap.dto.at), 'x-now': String(Date.now()) };
  if (req.headers.get('if-none-match') === snap.etag) return new Response(null, { status: 304, headers });
  return new Response(snap.body, { headers: { ...headers, 'content-type': 'application/json' } });
});
