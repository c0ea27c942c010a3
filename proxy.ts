import { NextResponse, type NextRequest } from 'next/server';
import { authenticate, isMachinePath, isPublicPath } from '@/lib/server/auth/principal';

/**
 * The gate in front of every page and API route (Next 16's request interceptor, formerly
 * middleware.ts; it runs on the Node.js runtime, so node:crypto is there). A page without an
 * identity redirects to /login?next=<where it was going>; an API request gets a 401 in the
 * API's error envelope (503 auth_misconfigured while the configuration is unusable). The route
 * wrapper checks again (lib/server/http/route.ts), because this file only sees what its matcher lets
 * through. `nextUrl.pathname` comes without the base path; redirects built from nextUrl keep it.
 */
export function proxy(req: NextRequest): Response {
  const path = req.nextUrl.pathname;
  if (isPublicPath(path)) return NextResponse.next();
  const outcome = authenticate(req, path);
  if (outcome.ok) return NextResponse.next();
  if (isMachinePath(path)) {
    return Response.json({ error: { code: outcome.code, message: outcome.message } }, { status: outcome.status });
  }
  const login = req.nextUrl.clone();
  login.pathname = '/login';
  login.search = '';
  if (path !== '/') login.searchParams.set('next', `${path}${req.nextUrl.search}`);
  return NextResponse.redirect(login);
}

export const config = {
  // Everything but the build's own static files. Not "every path ending in .css/.png": queue
  // names and task IDs are arbitrary, so /queues/report.css is a page that must stay gated.
  matcher: ['/((?!_next/static/|_next/image|favicon\\.ico$).*)'],
};
