import { NextResponse, type NextRequest } from 'next/server';
import { AuthConfigError, authConfig, type AuthConfig } from '@/lib/server/auth/config';
import { authenticate, isMachinePath, isPublicPath } from '@/lib/server/auth/principal';
import { isHttps } from '@/lib/server/auth/session';
import { hostRefusal } from '@/lib/server/http/host-check';
import { undecodablePath } from '@/lib/server/http/request-input';
import { HSTS, newNonce, securityPolicy } from '@/lib/server/http/security-headers';

/**
 * The gate in front of every page and API route (Next 16's request interceptor, formerly
 * middleware.ts; it runs on the Node.js runtime, so node:crypto is there). In order: a Host the
 * console does not answer to gets 421 (lib/server/http/host-check.ts); a path segment that does
 * not decode gets 400; a page without an identity redirects to /login?next=<where it was
 * going>; an API request gets a 401 in the API's error envelope (503 auth_misconfigured while
 * the configuration is unusable). Every answer carries the security headers. A page let through
 * carries this response's CSP nonce to the renderer (Next reads it from the request's
 * Content-Security-Policy and puts it on its scripts; the root layout reads x-nonce); an API
 * request is let through untouched, since nothing renders script for it, which spares Next
 * copying every request header back onto it. The route wrapper checks identity again
 * (lib/server/http/route.ts), because this file only sees what its matcher lets through.
 * `nextUrl.pathname` comes without the base path; redirects built from nextUrl keep it.
 */
export async function proxy(req: NextRequest): Promise<Response> {
  const policy = securityPolicy(process.env.NODE_ENV === 'development');
  const path = req.nextUrl.pathname;
  const machine = isMachinePath(path);
  const nonce = machine ? null : newNonce();
  const csp = nonce === null ? policy.scriptless : policy.page(nonce);
  const res = await gate(req, path, machine, nonce === null ? null : { csp, nonce });
  res.headers.set('content-security-policy', csp);
  for (const [name, value] of policy.fixed) res.headers.set(name, value);
  if (isHttps(req)) res.headers.set(...HSTS);
  return res;
}

/** The settings, or the error that makes them unusable (the Host rule and authentication each answer it their way). */
function currentAuth(): AuthConfig | AuthConfigError {
  try {
    return authConfig();
  } catch (err) {
    if (err instanceof AuthConfigError) return err;
    throw err;
  }
}

async function gate(req: NextRequest, path: string, machine: boolean, render: Render | null): Promise<Response> {
  const cfg = currentAuth();
  // A broken configuration is not `none`, so the Host rule gets the stricter reading.
  const misdirected = hostRefusal(req.headers, req.nextUrl.host, cfg instanceof AuthConfigError ? 'login' : cfg.mode);
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
