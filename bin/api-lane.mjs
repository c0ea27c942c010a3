/**
 * The API lane: the launcher hands a request for an API route straight to that route's compiled
 * handler, without Next's router, request interceptor (proxy.ts) and route machinery in front.
 * Those cost about 2.5 ms of CPU per request, four times what the handler of a task's detail
 * costs, and every open tab pays them on every refresh. Safe to skip because every API route is
 * complete on its own: route() (lib/server/http/route.ts) applies the same Host and path checks
 * and security headers as proxy.ts (lib/server/http/gate.ts), authenticates, and bounds its
 * input. See ARCHITECTURE.md §2.
 *
 * Only the plain case takes the lane: a path that is exactly a route (no trailing slash, no
 * `.`/`..` or empty segments, every segment decodable), under the base path, with a method the
 * route exports, and a Host header. Everything else (HEAD, OPTIONS, a 404, a 405, a redirect)
 * goes to Next as before, so Next stays the one authority on what it answers. Answers are
 * compressed the way Next compresses them (gzip from 1 KiB of JSON or text when the client
 * accepts it); streams (NDJSON progress, server-sent events, downloads) are written chunk by
 * chunk as they come, with backpressure, and the handler's signal aborts when the client goes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);
/**
 * From this size a body is compressed at level 1 rather than zlib's default 6: the metrics
 * exposition at 25,000 queues is 17 MB, compressed on every scrape; on 12 MB of it level 6 took
 * 208 ms of a core and level 1 38 ms, for 2% more bytes (repetitive text compresses well at any
 * level). Compression runs on libuv's thread pool, off the event loop.
 */
const FAST_FROM = 1024 * 1024;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** Compressed from this size, as Next's compression does (the `compression` package's threshold). */
const COMPRESS_FROM = 1024;
/** Types answered whole and compressed; anything else (NDJSON, event streams, downloads) is streamed as is. */
const WHOLE = /^(application\/json|text\/plain|text\/html)\b/i;

/**
 * The routes of a build, from its app-paths manifest: `/api/queues/[qname]/route` →
 * segments, most specific first (a static segment before a dynamic one at the same place, as
 * Next orders them), and the fixed-path rewrites of its routes manifest (`/metrics`).
 */
function routeTable(serverDir, distDir) {
  const dist = join(serverDir, distDir);
  const manifest = JSON.parse(readFileSync(join(dist, 'server', 'app-paths-manifest.json'), 'utf8'));
  const routes = [];
  for (const [page, file] of Object.entries(manifest)) {
    if (!page.startsWith('/api/') || !page.endsWith('/route')) continue;
    const segments = page.slice(1, -'/route'.length).split('/').map((s) => {
      const rest = /^\[\.\.\.([^\]]+)\]$/.exec(s);
      if (rest) return { rest: rest[1] };
      const param = /^\[([^\]]+)\]$/.exec(s);
      return param ? { param: param[1] } : { fixed: s };
    });
    routes.push({ segments, file: join(dist, 'server', file), handlers: undefined });
  }
  const rank = (s) => ('fixed' in s ? 0 : 'param' in s ? 1 : 2);
  routes.sort((a, b) => {
    for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
      const d = rank(a.segments[i]) - rank(b.segments[i]);
      if (d !== 0) return d;
    }
    return b.segments.length - a.segments.length;
  });
  const rewrites = new Map();
  const routesManifest = JSON.parse(readFileSync(join(dist, 'routes-manifest.json'), 'utf8'));
  const all = routesManifest.rewrites;
  for (const r of Array.isArray(all) ? all : [...(all?.beforeFiles ?? []), ...(all?.afterFiles ?? []), ...(all?.fallback ?? [])]) {
    if (/^\/[A-Za-z0-9/_-]*$/.test(r.source) && r.destination.startsWith('/api/')) rewrites.set(r.source, r.destination);
  }
  return { routes, rewrites };
}

/** The route and decoded params of an app path, or null (Next decides). */
function match(routes, path) {
  const parts = path.slice(1).split('/');
  for (const part of parts) if (part === '' || part === '.' || part === '..') return null;
  outer: for (const route of routes) {
    const params = {};
    const { segments } = route;
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i];
      if ('rest' in s) {
        if (i >= parts.length) continue outer;
        params[s.rest] = parts.slice(i).map(decodeURIComponent);
        return { route, params };
      }
      if (i >= parts.length) continue outer;
      if ('fixed' in s) {
        if (parts[i] !== s.fixed) continue outer;
      } else params[s.param] = decodeURIComponent(parts[i]);
    }
    if (segments.length === parts.length) return { route, params };
  }
  return null;
}

/** lib/server/http/responses.ts' BODY_TEXT: an answer's body as text, kept by the app when it built it. */
const BODY_TEXT = Symbol.for('asynqlens.body-text');

/** lib/server/http/lane-answer.ts' LANE_REQUEST: marks the requests built here, which route() may answer with a LaneAnswer. */
const LANE_REQUEST = Symbol.for('asynqlens.lane-request');
/** lane-answer.ts' LANE_URL: the URL parsed here, which route() then need not parse again. */
const LANE_URL = Symbol.for('asynqlens.lane-url');

/**
 * The request headers as a web Headers' `get` reads them: names case-insensitive, a repeated
 * header's values joined with ", " in order (from Node's raw list, so a second Host header is
 * seen by the Host rule, as with Headers). Built on first use.
 */
class LaneHeaders {
  #raw;
  #map;
  constructor(raw) {
    this.#raw = raw;
  }
  #all() {
    if (this.#map === undefined) {
      const map = new Map();
      const raw = this.#raw;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = raw[i].toLowerCase();
        const prev = map.get(name);
        map.set(name, prev === undefined ? raw[i + 1] : `${prev}, ${raw[i + 1]}`);
      }
      this.#map = map;
    }
    return this.#map;
  }
  get(name) {
    return this.#all().get(String(name).toLowerCase()) ?? null;
  }
  has(name) {
    return this.#all().has(String(name).toLowerCase());
  }
  forEach(fn, thisArg) {
    for (const [name, value] of this.#all()) fn.call(thisArg, value, name, this);
  }
  entries() {
    return this.#all().entries();
  }
  keys() {
    return this.#all().keys();
  }
  values() {
    return this.#all().values();
  }
  [Symbol.iterator]() {
    return this.#all().entries();
  }
}

/**
 * What a route reads of a web Request (method, url, headers, body, signal), without building
 * one: undici's Request with its Headers costs about 30 µs of CPU per request, a third of what
 * a cached read costs in all. route() and everything it calls use only these members (the e2e
 * suite runs every API request through this lane, and tests/e2e/api-lane.spec.ts compares the
 * answers with Next's). The body is a web stream made on first use; the signal aborts when the
 * client goes away.
 */
class LaneRequest {
  #node;
  #res;
  #headers;
  #body;
  #aborter;
  constructor(method, url, node, res) {
    this.method = method;
    this.url = url.href;
    this.#node = node;
    this.#res = res;
    this[LANE_REQUEST] = true;
    this[LANE_URL] = url;
  }
  get headers() {
    return (this.#headers ??= new LaneHeaders(this.#node.rawHeaders));
  }
  get body() {
    if (this.method === 'GET') return null;
    return (this.#body ??= Readable.toWeb(this.#node));
  }
  get bodyUsed() {
    return this.#body !== undefined && this.#body.locked;
  }
  /** Made on first use (most reads never look): aborts when the client goes before the answer is written. */
  get signal() {
    if (this.#aborter === undefined) {
      const aborter = (this.#aborter = new AbortController());
      const res = this.#res;
      if (res.destroyed && !res.writableFinished) aborter.abort();
      else res.once('close', () => res.writableFinished || aborter.abort());
    }
    return this.#aborter.signal;
  }
}

/** Writes a web Response to Node's response: whole (and compressed) or streamed. */
async function send(answer, req, res) {
  if (answer.headers.record !== undefined) return sendWhole(answer.status, answer.headers.record, answer[BODY_TEXT], req, res);
  const headers = {};
  for (const [name, value] of answer.headers) if (name !== 'set-cookie') headers[name] = value;
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const type = answer.headers.get('content-type') ?? '';
  if (answer.body === null || req.method === 'HEAD') {
    res.writeHead(answer.status, headers);
    res.end();
    return;
  }
  if (WHOLE.test(type)) {
    const text = answer[BODY_TEXT];
    return sendWhole(answer.status, headers, typeof text === 'string' ? text : Buffer.from(await answer.arrayBuffer()), req, res);
  }
  res.writeHead(answer.status, headers);
  res.flushHeaders();
  const reader = answer.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  } finally {
    reader.cancel().catch(() => {});
    res.end();
  }
}

/**
 * Writes a whole answer (text or bytes, or undefined for none), compressed when it is large
 * enough and the client takes gzip. `headers` is a record of lowercase names, written as is.
 */
async function sendWhole(status, headers, text, req, res) {
  if (text === undefined || req.method === 'HEAD') {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const bytes = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
  // An answer the route compressed itself (the metrics exposition) is sent as it is.
  if (bytes >= COMPRESS_FROM && !('content-encoding' in headers)) {
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    if (/\bgzip\b/i.test(req.headers['accept-encoding'] ?? '')) {
      const body = await gzip(typeof text === 'string' ? Buffer.from(text) : text, bytes >= FAST_FROM ? { level: 1 } : {});
      headers['content-encoding'] = 'gzip';
      headers['content-length'] = String(body.length);
      res.writeHead(status, headers);
      res.end(body);
      return;
    }
  }
  // Text not compressed goes out as text: Node writes it with the head in one piece, encoding
  // it straight into the socket's write (no buffer of it made here: for a page of tasks that
  // copy and its external memory cost more than the write).
  headers['content-length'] = String(bytes);
  res.writeHead(status, headers);
  res.end(text);
}

/**
 * Returns `(req, res) => boolean`: true when the request was taken (and will be answered), false
 * when Next should have it. Route modules load on first use, from the same files Next loads
 * (one module instance: Node's require cache), so the routes share every cache and connection.
 */
export function apiLane({ serverDir, distDir, basePath }) {
  const { routes, rewrites } = routeTable(serverDir, distDir);
  const requireRoute = createRequire(join(serverDir, 'server.js'));
  const prefix = `${basePath}/`;

  function handlerOf(route, method) {
    route.handlers ??= requireRoute(route.file).routeModule.userland;
    const h = route.handlers[method];
    return typeof h === 'function' ? h : null;
  }

  return function take(req, res) {
    const method = req.method ?? 'GET';
    const host = req.headers.host;
    const raw = req.url ?? '';
    if (!METHODS.has(method) || !host || !raw.startsWith(prefix)) return false;
    const q = raw.indexOf('?');
    let path = (q < 0 ? raw : raw.slice(0, q)).slice(basePath.length);
    path = rewrites.get(path) ?? path;
    if (!path.startsWith('/api/')) return false;
    let found;
    let url;
    try {
      found = match(routes, path);
      url = new URL(`http://${host}${raw}`);
    } catch {
      return false; // an undecodable segment or a malformed Host: Next's and proxy.ts' answers
    }
    if (found === null) return false;
    const handler = handlerOf(found.route, method);
    if (handler === null) return false;

    const request = new LaneRequest(method, url, req, res);
    Promise.resolve(handler(request, { params: Promise.resolve(found.params) }))
      .then((answer) => send(answer, req, res))
      .catch((err) => {
        // route() maps every error to an answer; reaching here is a bug of ours or a lost socket.
        process.stderr.write(`asynqlens: ${method} ${path}: ${err?.stack ?? err}\n`);
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'internal', message: 'internal error' } }));
        } else res.destroy();
      });
    return true;
  };
}
