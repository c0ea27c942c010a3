import 'server-only';
import type { AuthMode, ProxyConfig } from './config';
import { AuthConfigError, authConfig } from './config';
import { safeEqual } from './safe-equal';
import { SESSION_COOKIE, cookieValue, readSession } from './session';
import type { Role } from './users';

/** Who a request acts for, and how that was established. */
export interface Principal {
  user: string;
  role: Role;
  mode: AuthMode;
  via: 'session' | 'proxy' | 'token' | 'none';
}

export type AuthOutcome =
  | { ok: true; principal: Principal }
  | { ok: false; status: 401 | 503; code: 'unauthorized' | 'auth_misconfigured'; message: string };

const denied = (message: string): AuthOutcome => ({ ok: false, status: 401, code: 'unauthorized', message });

/** The metrics route and its Prometheus-style alias (a rewrite in next.config.mjs, which proxy.ts sees first). */
const METRICS_PATHS = new Set(['/api/metrics', '/metrics']);

/** Paths answered to machines (scrapers, scripts): refused with a 401 body, never redirected to a login page. */
export function isMachinePath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || METRICS_PATHS.has(path);
}

function fromProxy(req: Request, p: ProxyConfig, mode: AuthMode): AuthOutcome {
  const user = req.headers.get(p.userHeader)?.trim() ?? '';
  const secret = req.headers.get(p.secretHeader);
  if (user === '' && secret === null) return denied('not signed in: this dashboard is reached through its authenticating proxy');
  // Only the proxy knows the secret; an identity header without it was set by someone else.
  if (secret === null || !safeEqual(secret, p.secret)) return denied(`identity refused: ${p.secretHeader} is missing or wrong (requests must come through the proxy)`);
  if (user === '') return denied(`not signed in: the proxy sent no ${p.userHeader}`);
  let role: Role = p.operators.has(user) ? 'operator' : p.defaultRole;
  const sent = p.roleHeader ? req.headers.get(p.roleHeader)?.trim().toLowerCase() : undefined;
  if (sent) {
    if (sent !== 'viewer' && sent !== 'operator') return denied(`${p.roleHeader} must be viewer or operator (got ${JSON.stringify(sent)})`);
    role = sent;
  }
  return { ok: true, principal: { user, role, mode, via: 'proxy' } };
}

function fromSession(req: Request): AuthOutcome {
  const cfg = authConfig();
  const value = cookieValue(req.headers.get('cookie'), SESSION_COOKIE);
  if (value === null) return denied('not signed in');
  const claims = readSession(value, cfg.sessionSecret, Math.floor(Date.now() / 1000));
  if (typeof claims === 'string') return denied(`${claims}: sign in again`);
  // Checked on every request, so removing a user or changing a role ends the session at once.
  const user = cfg.users.get(claims.u);
  if (!user || user.role !== claims.r) return denied('session no longer valid (the user was removed or its role changed): sign in again');
  return { ok: true, principal: { user: claims.u, role: claims.r, mode: 'login', via: 'session' } };
}

/**
 * Who `req` acts for. `path` is the app path (without the base path). An in-memory check only
 * (an HMAC or a header comparison; the users file costs one stat when it is in use), so both
 * proxy.ts and every route handler run it.
 */
export function authenticate(req: Request, path: string): AuthOutcome {
  try {
    const cfg = authConfig();
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1]?.trim();
    if (METRICS_PATHS.has(path) && cfg.metricsToken && bearer !== undefined) {
      if (!safeEqual(bearer, cfg.metricsToken)) return denied('metrics token does not match ASYNQLENS_METRICS_TOKEN');
      return { ok: true, principal: { user: 'metrics', role: 'viewer', mode: cfg.mode, via: 'token' } };
    }
    if (cfg.mode === 'none') return { ok: true, principal: { user: 'anonymous', role: 'operator', mode: 'none', via: 'none' } };
    if (cfg.mode === 'proxy' && cfg.proxy) return fromProxy(req, cfg.proxy, 'proxy');
    return fromSession(req);
  } catch (err) {
    if (err instanceof AuthConfigError) return { ok: false, status: 503, code: 'auth_misconfigured', message: err.message };
    throw err;
  }
}

/** The app path of a URL path: the base path removed (Next strips it for pages, not for req.url). */
export function appPath(pathname: string): string {
  const base = (process.env.ASYNQLENS_BASE_PATH ?? '').trim().replace(/\/+$/, '');
  if (base && (pathname === base || pathname.startsWith(`${base}/`))) return pathname.slice(base.length) || '/';
  return pathname;
}

/** Paths open to everyone: the sign-in page and API, and the health probes (/api/health, /api/health/live). */
export function isPublicPath(path: string): boolean {
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  return path === '/login' || under('/api/health') || under('/api/auth');
}
