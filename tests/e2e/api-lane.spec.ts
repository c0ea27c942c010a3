/**
 * The API lane (bin/api-lane.mjs): the launcher answers API routes without Next's router. The
 * suite's app runs with it; a second app on the same Redis runs with ASYNQLENS_API_LANE=off, so
 * every request below goes through Next there. The two must answer alike: status, body, error
 * envelope, security headers, compression, streams; and what the lane does not take (a 404, a
 * 405, HEAD, a trailing slash, an undecodable segment) reaches Next in both. Next marks its own
 * API answers with `Vary: rsc, …`, which shows which way a request went.
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import type { Spec } from './support/harness';

export const phase = 'write';

const QUEUE = 'e2e-api-lane';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP request with exactly these headers (fetch would add and decode its own). */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const viaNext = (r: Raw) => /next-router-state-tree/.test(String(r.headers.vary ?? ''));
const text = (r: Raw) => (r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body).toString('utf8');

function sameSecurityHeaders(lane: Raw, next: Raw, what: string) {
  for (const h of ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'x-frame-options']) {
    assert.ok(lane.headers[h], `${what}: the lane's answer has ${h}`);
    assert.equal(lane.headers[h], next.headers[h], `${what}: ${h}`);
  }
}

const specs: Spec[] = [
  {
    name: 'api lane: routes answer as through Next — bodies, errors, headers, gzip, NDJSON — and the rest still reaches Next',
    run: async ({ baseUrl, startApp }) => {
      const other = await startApp({ ASYNQLENS_API_LANE: 'off' });
      try {
        const both = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
          [await raw(baseUrl, method, path, headers, body), await raw(other.url, method, path, headers, body)] as const;

        // Seed through the API: twenty tasks, enough for a compressed page.
        for (let i = 0; i < 20; i++) {
          const r = await raw(baseUrl, 'POST', `/api/queues/${QUEUE}/tasks`, {}, JSON.stringify({ type: 'lane:check', payload: JSON.stringify({ i, pad: 'x'.repeat(60) }) }));
          assert.equal(r.status, 201, text(r));
        }

        // Reads: same JSON; the lane's answer skipped Next, the other went through it.
        for (const path of ['/api/queues', `/api/queues/${QUEUE}/tasks?state=pending&size=20`, `/api/queues/${QUEUE}`, '/api/health', '/api/health/live']) {
          const [lane, next] = await both('GET', path);
          assert.equal(lane.status, next.status, path);
          assert.ok(!viaNext(lane), `${path}: answered by the lane`);
          assert.ok(viaNext(next), `${path}: answered by Next with the lane off`);
          // Two apps, two reads a moment apart: times and ages differ, so numbers and timestamps
          // are compared by place, everything else (names, IDs, states, structure) by value.
          const shape = (v: unknown): unknown =>
            typeof v === 'number' ? 0
            : typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) ? 'time'
            : Array.isArray(v) ? v.map(shape)
            : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]))
            : v;
          assert.deepEqual(shape(JSON.parse(text(lane))), shape(JSON.parse(text(next))), `${path}: same body`);
          sameSecurityHeaders(lane, next, path);
        }

        // Compression: gzip when asked and over 1 KiB, as Next does; plain otherwise.
        const page = `/api/queues/${QUEUE}/tasks?state=pending&size=20`;
        const [zipped, nextZipped] = await both('GET', page, { 'accept-encoding': 'gzip' });
        assert.equal(zipped.headers['content-encoding'], 'gzip');
        assert.equal(nextZipped.headers['content-encoding'], 'gzip');
        assert.deepEqual(JSON.parse(text(zipped)).tasks.length, 20);

        // The metrics alias (a rewrite) and an error envelope.
        const [metrics, nextMetrics] = await both('GET', '/metrics');
        assert.equal(metrics.status, 200);
        assert.ok(!viaNext(metrics), '/metrics: answered by the lane');
        assert.equal(metrics.headers['content-type'], nextMetrics.headers['content-type']);
        const [bad, nextBad] = await both('GET', `/api/queues/${QUEUE}/tasks?state=nonsense`);
        assert.equal(bad.status, 400);
        assert.deepEqual(JSON.parse(text(bad)), JSON.parse(text(nextBad)));

        // A mutation from another site is refused by route() itself, with the same words.
        const [cross, nextCross] = await both('POST', `/api/queues/${QUEUE}/pause`, { origin: 'https://evil.example' }, '{}');
        assert.equal(cross.status, 403);
        const withoutPort = (r: Raw) => text(r).replace(/127\.0\.0\.1:\d+/g, 'HOST');
        assert.equal(withoutPort(cross), withoutPort(nextCross));

        // The Host rule and an undecodable segment: the same refusals, whichever way they went.
        const [misdirected, nextMisdirected] = await both('GET', '/api/queues', { host: 'evil.example' });
        assert.equal(misdirected.status, 421);
        assert.deepEqual(JSON.parse(text(misdirected)), JSON.parse(text(nextMisdirected)));
        const [undecodable, nextUndecodable] = await both('GET', '/api/queues/%FF/tasks');
        assert.equal(undecodable.status, 400);
        assert.deepEqual(JSON.parse(text(undecodable)), JSON.parse(text(nextUndecodable)));

        // What the lane leaves to Next: unknown path, method not exported, HEAD, trailing slash.
        for (const [method, path] of [['GET', '/api/no-such-route'], ['PUT', '/api/queues'], ['HEAD', '/api/health'], ['GET', '/api/queues/']] as const) {
          const [lane, next] = await both(method, path);
          assert.equal(lane.status, next.status, `${method} ${path}`);
        }

        // A stream: NDJSON progress then the result, read as it comes.
        const stream = await raw(baseUrl, 'POST', `/api/queues/${QUEUE}/bulk`, { accept: 'application/x-ndjson' }, JSON.stringify({ action: 'archive', state: 'pending' }));
        assert.ok(!viaNext(stream), 'the NDJSON stream: answered by the lane');
        assert.equal(stream.status, 200);
        assert.match(String(stream.headers['content-type']), /application\/x-ndjson/);
        const lines = text(stream).trim().split('\n').map((l) => JSON.parse(l) as { result?: { succeeded: number } });
        assert.equal(lines.at(-1)?.result?.succeeded, 20, text(stream));
        sameSecurityHeaders(stream, (await both('GET', '/api/queues'))[1], 'NDJSON stream');

        const cleared = await raw(baseUrl, 'POST', `/api/queues/${QUEUE}/bulk`, {}, JSON.stringify({ action: 'delete', state: 'archived' }));
        assert.equal(cleared.status, 200, text(cleared));
      } finally {
        await other.stop();
      }
    },
  },
];

export default specs;
