/**
 * The search routes, called in-process the way Next.js calls them (tests/support/call-route).
 */
import { callRoute, type JsonBody } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { testRedisUrl } from '../../support/test-redis';
import type { Query } from './oracle';

export interface SearchApi {
  /** GET /api/tasks/search with `q` (arrays repeat the parameter) plus extra raw parameters. */
  page(q: Query, extra?: Record<string, string>): Promise<{ status: number; body: JsonBody }>;
  /** Every page until the cursor is null; throws on a non-200 page. */
  all(q: Query, size?: number): Promise<{ tasks: JsonBody[]; pages: JsonBody[] }>;
  act(body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: JsonBody; text: string }>;
}

export function toQueryString(q: Query, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
  for (const [k, v] of Object.entries(extra)) p.append(k, v);
  return p.toString();
}

/** Points the server code at database `db` (before its first use in this process) and loads the routes. */
export async function openSearchApi(db: number): Promise<SearchApi> {
  process.env.REDIS_URL = testRedisUrl(db);
  const { search, act } = await consoleRoutes();
  const api: SearchApi = {
    page: (q, extra) => callRoute(search.GET, `/api/tasks/search?${toQueryString(q, extra)}`),
    async all(q, size = 3) {
      const tasks: JsonBody[] = [];
      const pages: JsonBody[] = [];
      let cursor: string | null = null;
      do {
        const { status, body } = await api.page(q, { size: String(size), ...(cursor ? { cursor } : {}) });
        if (status !== 200) throw new Error(`search ${toQueryString(q)} answered ${status}: ${JSON.stringify(body)}`);
        pages.push(body);
        tasks.push(...body.tasks);
        cursor = body.cursor;
        if (pages.length > 10_000) throw new Error('search did not finish in 10,000 pages');
      } while (cursor !== null);
      return { tasks, pages };
    },
    async act(body, headers = {}) {
      const init = { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
      if (headers.accept?.includes('ndjson')) {
        // callRoute would JSON.parse the whole stream; NDJSON is read line by line by the test.
        const res = await act.POST(new Request('http://localhost/api/tasks/search/act', init), { params: Promise.resolve({}) });
        return { status: res.status, body: null, text: await res.text() };
      }
      const res = await callRoute(act.POST, '/api/tasks/search/act', {}, init);
      return { status: res.status, body: res.body, text: res.bytes.toString('utf8') };
    },
  };
  return api;
}
