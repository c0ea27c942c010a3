import { NextResponse, type NextRequest } from 'next/server';
import { authenticate, isMachinePath, isPublicPath } from '@/lib/server/auth/principal';
import { gateRefusal, secureHeaders } from '@/lib/server/http/gate';
import { newNonce, securityPolicy } from '@/lib/server/http/security-headers';

/**
 * The gate in front of every page and API route (Next 16's request interceptor, formerly
 * middleware.ts; it runs on the Node.js runtime, so node:crypto is there). In order: a Host the
 * console does not answer to gets 421 (lib/server/http/host-check.ts); a path segment that does
 * not decode gets 400; a page without an identity redirects to /login?next=<where it was
 * going>; an API request gets a 401 in the API's error envelope (503 auth_misconfigured while
 * the configuration is unusable). Every answer carries the security headers. The Host and path
checks and the headers are lib/server/http/gate.ts, which route() applies too. A page let through
 * carries this response's CSP nonce to the renderer (Next reads it from the request's
 * Content-Security-Policy and puts it on its scripts; the root layout reads x-nonce); an API
 * request is let through untouched, since nothing renders script for it, which spares Next
 * copying every request header back onto it. The route wrapper checks identity again
 * (lib/server/http/route.ts), because this file only sees what its matcher lets through.
 * `nextUrl.pathname` comes without the base path; redirects built from nextUrl keep it.
 */
export async function proxy(req: NextRequest): Promise<Response> {
  const path = req.nextUrl.pathname;
  const machine = isMachinePath(path);
  const nonce = machine ? null : newNonce();
  const render = nonce === null ? null : { nonce, csp: securityPolicy(process.env.NODE_ENV === 'development').page(nonce) };
  const res = await gate(req, path, machine, render);
  return secureHeaders(res, req, render?.csp ?? null);
}

async function gate(req: NextRequest, path: string, machine: boolean, render: Render | null): Promise<Response> {
  const refused = gateRefusal(req.headers, req.nextUrl.host, path, machine);
  if (refused !== null) return refused;
  if (isPublicPath(path)) return next(req, render);
  const outcome = await authenticate(req, path);
  if (outcome.ok) return next(req, render);
  if (machine) {
    return Response.json({ error: { code: outcome.code, message: outcome.message } }, { status: outcome.status });
  }
  const login = req.nextUrl.clone();
  login.pathname = '/login';
  login.search = '';
  if (path !== '/') login.searchParams.set('next', `${path}${req.nextUrl.search}`);
  return NextResponse.redirect(login);
}

/** What a page's renderer needs from this response: its policy and nonce. */
interface Render {
  csp: string;
  nonce: string;
}

/** Lets the request through; a page's carries the policy and nonce (what a client sent there is replaced). */
function next(req: NextRequest, render: Render | null): NextResponse {
  if (render === null) return NextResponse.next();
  const headers = new Headers(req.headers);
  headers.set('content-security-policy', render.csp);
  headers.set('x-nonce', render.nonce);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Everything but the build's own static files (next.config.mjs gives those their headers).
  // Not "every path ending in .css/.png": queue names and task IDs are arbitrary, so
  // /queues/report.css is a page that must stay gated.
  matcher: ['/((?!_next/static/|_next/image|favicon\\.ico$).*)'],
};
