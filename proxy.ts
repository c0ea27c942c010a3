import { NextResponse, type NextRequest } from 'next/server';
import { AuthConfigError, authConfig, type AuthMode } from '@/lib/server/auth/config';
import { authenticate, isMachinePath, isPublicPath } from '@/lib/server/auth/principal';
import { isHttps } from '@/lib/server/auth/session';
import { hostRefusal } from '@/lib/server/http/host-check';
import { undecodablePath } from '@/lib/server/http/request-input';
import { newNonce, securityHeaders } from '@/lib/server/http/security-headers';

/**
 * The gate in front of every page and API route (Next 16's request interceptor, formerly
 * middleware.ts; it runs on the Node.js runtime, so node:crypto is there). In order: a Host the
 * console does not answer to gets 421 (lib/server/http/host-check.ts); a page without an
 * identity redirects to /login?next=<where it was going>; an API request gets a 401 in the
 * API's error envelope (503 auth_misconfigured while the configuration is unusable). Every
 * answer carries the security headers, and a request let through carries this response's CSP
 * nonce to the renderer (Next reads it from the request's Content-Security-Policy and puts it on
 * its scripts; the root layout reads x-nonce). The route wrapper checks identity again
 * (lib/server/http/route.ts), because this file only sees what its matcher lets through.
 * `nextUrl.pathname` comes without the base path; redirects built from nextUrl keep it.
 */
export async function proxy(req: NextRequest): Promise<Response> {
  const nonce = newNonce();
  const headers = securityHeaders({ nonce, https: isHttps(req), dev: process.env.NODE_ENV === 'development' });
  const res = await gate(req, headers['content-security-policy']!, nonce);
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  return res;
}

/** The mode the Host rule follows; a broken configuration is not `none`, so it gets the stricter reading. */
function authMode(): AuthMode {
  try {
    return authConfig().mode;
  } catch (err) {
    if (err instanceof AuthConfigError) return 'login';
    throw err;
  }
}

async function gate(req: NextRequest, csp: string, nonce: string): Promise<Response> {
  const path = req.nextUrl.pathname;
  const machine = isMachinePath(path);
  const misdirected = hostRefusal(req.headers, req.nextUrl.host, authMode());
  if (misdirected !== null) {
    // 421: this server is not the one for that authority (RFC 9110 §15.5.20), which is exactly
    // the case; 403 stays the answer about who may do what.
    if (machine) return Response.json({ error: { code: 'misdirected_request', message: misdirected } }, { status: 421 });
    return new Response(`${misdirected}\n`, { status: 421, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  // A segment that does not decode (%FF): Next would answer its own bare 500.
  const undecodable = undecodablePath(path);
  if (undecodable !== null) {
    if (machine) return Response.json({ error: { code: 'invalid_argument', message: undecodable, field: 'path' } }, { status: 400 });
    return new Response(`${undecodable}\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  if (isPublicPath(path)) return next(req, csp, nonce);
  const outcome = await authenticate(req, path);
  if (outcome.ok) return next(req, csp, nonce);
  if (machine) {
    return Response.json({ error: { code: outcome.code, message: outcome.message } }, { status: outcome.status });
  }
  const login = req.nextUrl.clone();
  login.pathname = '/login';
  login.search = '';
  if (path !== '/') login.searchParams.set('next', `${path}${req.nextUrl.search}`);
  return NextResponse.redirect(login);
}

/** Lets the request through with the policy and nonce on it (what a client sent there is replaced). */
function next(req: NextRequest, csp: string, nonce: string): NextResponse {
  const headers = new Headers(req.headers);
  headers.set('content-security-policy', csp);
  headers.set('x-nonce', nonce);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Everything but the build's own static files (next.config.mjs gives those their headers).
  // Not "every path ending in .css/.png": queue names and task IDs are arbitrary, so
  // /queues/report.css is a page that must stay gated.
  matcher: ['/((?!_next/static/|_next/image|favicon\\.ico$).*)'],
};
