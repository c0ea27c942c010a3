import 'server-only';
import type { z } from 'zod';
import { toErrorResponse } from './errors';

type Schema = z.ZodType;
type Ctx = { params: Promise<Record<string, string | string[]>> };

interface RouteSpec<P extends Schema | undefined, Q extends Schema | undefined> {
  params?: P;
  query?: Q;
}

type Infer<S> = S extends Schema ? z.infer<S> : undefined;

interface Input<P, Q> {
  params: P;
  query: Q;
  req: Request;
}

/**
 * Wraps a route handler: parses path params and the query string with the contract's zod
 * schemas (a bad one is a 400 naming the field), runs the service, and maps every error to the
 * API's envelope. A handler returns a plain object (sent as JSON) or a Response.
 */
export function route<P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined>(
  spec: RouteSpec<P, Q>,
  handler: (input: Input<Infer<P>, Infer<Q>>) => Promise<unknown>,
) {
  return async (req: Request, ctx: Ctx): Promise<Response> => {
    try {
      const rawParams = (await ctx?.params) ?? {};
      const params = (spec.params ? spec.params.parse(rawParams) : undefined) as Infer<P>;
      const url = new URL(req.url);
      const query = (spec.query ? spec.query.parse(Object.fromEntries(url.searchParams)) : undefined) as Infer<Q>;
      const out = await handler({ params, query, req });
      return out instanceof Response ? out : Response.json(out);
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}
