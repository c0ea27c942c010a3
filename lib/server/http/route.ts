import 'server-only';
import type { z } from 'zod';
import type { ApiError } from '@/lib/contract/error-envelope';
import { audited, type Seen } from '../audit/capture';
import { assertMayMutate, requirePrincipal } from '../auth/guard';
import { appPath } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { toApiError } from './errors';
import { gateRefusal, secureHeaders } from './gate';
import { TextChunks, textChunksResponse } from './text-chunks';
import { assertJsonBody, assertSameSite, assertWritable } from './guards';
import { acceptsNdjson, isProgressStream, ndjsonResponse } from './ndjson';
import { DEFAULT_MAX_BODY, readJsonBody, readParams } from './request-input';
import { jsonAnswer } from './responses';
import { isLaneRequest, LaneAnswer, laneUrl, type Answer } from './lane-answer';
import { invalidateViews } from '../cache/views';
import { checkRedis } from '../redis/stall';
import { telemetry } from '../telemetry/registry';
import { apiRoutePattern } from './api-routes';

type Schema = z.ZodType;
type Ctx = { params: Promise<Record<string, string | string[]>> };

interface RouteSpec<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined> {
  params?: P;
  query?: Q;
  /**
   * The query schema receives every value of a repeated parameter (`queue=a&queue=b` gives
   * `{ queue: ['a', 'b'] }`; a single one stays a string). Without it the last value wins.
   */
  repeatable?: boolean;
  /** JSON body schema; a body that fails it is a 400 naming the field. */
  body?: B;
  /**
   * Bytes of body this route reads (default DEFAULT_MAX_BODY, 64 KiB); past it the answer is
   * a 413 naming the limit and the rest is never read. Raise it only for a route that carries
   * payloads or long lists.
   */
  maxBody?: number;
  /** Refused in read-only mode, from other sites, and with a non-JSON body. */
  mutates?: boolean;
  /**
   * A read that carries a JSON body (a POST allowed in read-only mode): refused from other
   * sites and with a non-JSON body before the body is parsed, as a mutation is.
   */
  sameSite?: boolean;
  /** Status for a successful object response (default 200). */
  status?: number;
  /**
   * The handler answers this content type's text instead of JSON (the metrics exposition): a
   * string, or TextChunks (text-chunks.ts) built once for many requests.
   */
  text?: string;
  /** Every answer, errors included, says `cache-control: no-store` (probes, scrapes). */
  noStore?: boolean;
  /**
   * false: no stall/connect gate before the handler (the readiness probe keeps its own,
   * shorter deadline). Default true.
   */
  redisGate?: boolean;
  /**
   * Answers a mapped error with something else (returns the answer, or undefined to keep the
   * error; either may come as a promise): /metrics reports Redis down as a metric. `startedMs` is when the request arrived.
   */
  recover?: (error: ApiError, startedMs: number) => unknown;
}

type Infer<S> = S extends Schema ? z.infer<S> : undefined;

type JsonAnswer = (value: unknown, init: { status: number }) => Answer;

/** jsonAnswer's LaneAnswer twin: the same text, without a Response around it. */
const laneJson: JsonAnswer = (value, init) => new LaneAnswer(init.status, JSON.stringify(value));

interface Input<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** Aborted when the client goes away: long work stops at its next check. */
  signal: AbortSignal;
  /** For the sign-in routes only (cookies, client address); services never take it. */
  req: Request;
  /** Who the request acts for; null only on the public paths (health, sign-in). */
  user: Principal | null;
}

/** The query string; with `repeatable` as a multi-map, else last value wins. */
function readQuery(url: URL, repeatable: boolean | undefined): Record<string, string | string[]> {
  if (!repeatable) return Object.fromEntries(url.searchParams);
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const prev = out[key];
    out[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  return out;
}

/**
 * Wraps a route handler; the only place that turns requests into input and answers into
 * Responses. Parses path params, the query string and the JSON body with the contract's zod
 * schemas (a bad one is a 400 naming the field), runs the service, and maps every error to the
 * API's envelope through toApiError, including one thrown midway through a stream. A handler
 * returns a plain object (sent as JSON; undefined is a 204), a progressStream (NDJSON lines
 * when the client accepts them, else one JSON answer at the end), text (with `text`), or a
 * Response (sign-in's cookies, a download). Every request is authenticated first (401;
 * proxy.ts did so already, this is defence in depth); a mutation by a viewer is a 403
 * forbidden_role, and every mutation request that got past authentication is written to the
 * audit log with its outcome. Before all that, the Host and path checks of gate.ts, and every
 * answer gets the security headers: a route is complete on its own, which is what lets the
 * launcher call it without Next's router and proxy (bin/api-lane.mjs). A read that came
 * through that lane is answered with a LaneAnswer rather than a Response (lane-answer.ts).
 */
export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(spec: RouteSpec<P, Q, B>, handler: (input: Input<Infer<P>, Infer<Q>, Infer<B>>) => unknown) {
  // The type Next checks a route's handler against. A LaneAnswer goes only to the lane, which
  // asked for it by the request it built, so the cast never reaches Next.
  return async (req: Request, ctx: Ctx): Promise<Response> => {
    const started = performance.now();
    const url = laneUrl(req) ?? new URL(req.url);
    const json = !spec.mutates && isLaneRequest(req) ? laneJson : jsonAnswer;
    const res = secureHeaders(await gated(req, url, ctx, started, json), req, null);
    // Labelled by the route's pattern, never its path (queue names, task IDs): bounded series.
    const pattern = apiRoutePattern(appPath(url.pathname)) ?? 'other';
    telemetry().httpDuration.observe({ route: pattern, method: req.method, status: String(res.status) }, (performance.now() - started) / 1000);
    return res as Response;
  };

  async function gated(req: Request, url: URL, ctx: Ctx, started: number, json: JsonAnswer): Promise<Answer> {
    const refused = gateRefusal(req.headers, url.host, appPath(url.pathname), true);
    if (refused !== null) return headed(refused);
    let user: Principal | null;
    try {
      user = await requirePrincipal(req, url.pathname);
    } catch (err) {
      return failed(err, started, json);
    }
    const seen: Seen = { params: {} };
    const res = await respond(req, url, ctx, user, seen, started, json);
    // Mutations always answer with a Response (see `json` above), which the audit log reads.
    return spec.mutates && user ? audited(req, user, seen, res as Response) : res;
  }

  async function respond(req: Request, url: URL, ctx: Ctx, user: Principal | null, seen: Seen, started: number, json: JsonAnswer): Promise<Answer> {
    try {
      seen.params = await readParams(req, ctx?.params);
      if (spec.mutates) {
        assertMayMutate(user);
        assertWritable();
      }
      if (spec.mutates || spec.sameSite) {
        assertSameSite(req);
        assertJsonBody(req);
      }
      const params = (spec.params ? spec.params.parse(seen.params) : undefined) as Infer<P>;
      const query = (spec.query ? spec.query.parse(readQuery(url, spec.repeatable)) : undefined) as Infer<Q>;
      const body = (spec.body ? spec.body.parse((seen.body = await readJsonBody(req, spec.maxBody ?? DEFAULT_MAX_BODY))) : undefined) as Infer<B>;
      // 503 at once while Redis is stalled; reconnect now if the connection is between attempts.
      if (spec.redisGate !== false) await checkRedis();
      seen.handled = true;
      // The signal is read only by the handlers that watch for the client leaving; the API lane
      // makes it on first use, so a quick read does not pay for one.
      const input = { params, query, body, req, user, get signal() { return req.signal; } };
      let out = await settle(() => Promise.resolve(handler(input)));
      if (isProgressStream(out)) {
        if (acceptsNdjson(req)) return ndjsonResponse(out, (err) => toApiError(err, spec).toEnvelope(), changed);
        const work = out;
        out = await settle(() => work.run());
      }
      return answer(out, json);
    } catch (err) {
      return failed(err, started, json);
    }
  }

  /** After a change, every shared snapshot is stale, whether it succeeded or not. */
  function changed(): void {
    if (spec.mutates) invalidateViews();
  }

  async function settle<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      changed();
    }
  }

  function answer(out: unknown, json: JsonAnswer): Answer {
    if (out instanceof Response) return out;
    if (out === undefined) return headed(new Response(null, { status: 204 }));
    const status = spec.status ?? 200;
    if (out instanceof TextChunks) return headed(textChunksResponse(out, spec.text ?? 'text/plain; charset=utf-8', status));
    if (spec.text) return headed(new Response(out as string, { status, headers: { 'content-type': spec.text } }));
    return headed(json(out, { status }));
  }

  async function failed(err: unknown, started: number, json: JsonAnswer): Promise<Answer> {
    const e = toApiError(err, spec);
    const instead: unknown = await spec.recover?.(e, started);
    return instead === undefined ? headed(json(e.toEnvelope(), { status: e.status })) : answer(instead, json);
  }

  function headed<A extends Answer>(res: A): A {
    if (spec.noStore) res.headers.set('cache-control', 'no-store');
    return res;
  }
}
