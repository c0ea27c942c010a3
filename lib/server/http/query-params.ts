import 'server-only';

/**
 * A query string as a multi-map: a repeated parameter keeps every value (`queue=a&queue=b`),
 * which route()'s single-valued query parsing would drop.
 */
export function queryMultiMap(req: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(req.url).searchParams) {
    const prev = out[key];
    out[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  return out;
}
