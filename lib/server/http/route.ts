import 'server-only';
import type { z } from 'zod';
import { audited, type Seen } from '../audit/capture';
import { assertMayMutate, requirePrincipal } from '../auth/guard';
import type { Principal } from '../auth/principal';
import { HttpError, toErrorResponse } from './errors';
import { assertJsonBody, assertSameSite, assertWritable } from './guards';
import { invalidateShared } from '../cache/snapshot';
import { checkRedis } from '../redis/stall';

type Schema = z.ZodType;
type Ctx = { params: Promise<Record<string, string | string[]>> };

interface RouteSpec<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined> {
  params?: P;
  query?: Q;
  /** JSON body schema; a body that fails it is a 400 naming the field. */
  body?: B;
  /** Refused in read-only mode, from other sites, and with a non-JSON body. */
  mutates?: boolean;
  /** Status for a successful object response (default 200). */
  status?: number;
}

type Infer<S> = S extends Schema ? z.infer<S> : undefined;

interface Input<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  /** Who the request acts for; null only on the public paths (health, sign-in). */
  user: Principal | null;
}

async function readJson(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_argument', 'body: not valid JSON', { field: 'body' });
  }
}

/**
 * Wraps a route handler: parses path params and the query string with the contract's zod
 * schemas (a bad one is a 400 naming the field), runs the service, and maps every error to the
 * API's envelope. A handler returns a plain object (sent as JSON) or a Response. Every request
 * is authenticated first (401; proxy.ts did so already, this is defence in depth); a mutation
 * by a viewer is a 403 forbidden_role, and every mutation request that got past authentication
 * is written to the audit log with its outcome.
 */
export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(spec: RouteSpec<P, Q, B>, handler: (input: Input<Infer<P>, Infer<Q>, Infer<B>>) => Promise<unknown>) {
  return async (req: Request, ctx: Ctx): Promise<Response> => {
    let user: Principal | null;
    try {
      user = await requirePrincipal(req);
    } catch (err) {
      return toErrorResponse(err);
    }
    const seen: Seen = { params: {} };
    const res = await respond(req, ctx, user, seen);
    return spec.mutates && user ? audited(req, user, seen, res) : res;
  };

  async function respond(req: Request, ctx: Ctx, user: Principal | null, seen: Seen): Promise<Response> {
    try {
      seen.params = (await ctx?.params) ?? {};
      if (spec.mutates) {
        assertMayMutate(user);
        assertWritable();
        assertSameSite(req);
        assertJsonBody(req);
      }
      const params = (spec.params ? spec.params.parse(seen.params) : undefined) as Infer<P>;
      const url = new URL(req.url);
      const query = (spec.query ? spec.query.parse(Object.fromEntries(url.searchParams)) : undefined) as Infer<Q>;
      const body = (spec.body ? spec.body.parse((seen.body = await readJson(req))) : undefined) as Infer<B>;
      // 503 at once while Redis is stalled; reconnect now if the connection is between attempts.
      await checkRedis();
      let out: unknown;
      try {
        out = await handler({ params, query, body, req, user });
      } finally {
        if (spec.mutates) invalidateShared();
      }
      if (out instanceof Response) return out;
      if (out === undefined) return new Response(null, { status: 204 });
      return Response.json(out, { status: spec.status ?? 200 });
    } catch (err) {
      return toErrorResponse(err, { mutates: spec.mutates });
    }
  }
}
