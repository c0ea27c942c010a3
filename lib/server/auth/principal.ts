import 'server-only';
import type { AuthConfig, AuthMode, ProxyConfig } from './config';
import { AuthConfigError, authConfig } from './config';
import { safeEqual } from './safe-equal';
import { getRedis } from '../redis/client';
import { SESSION_COOKIE, cookieValue, readSession, userFingerprint } from './session';
import { touchSession } from './session-store';
import type { Role } from './users';

/** Who a request acts for, and how that was established. */
export interface Principal {
  user: string;
  role: Role;
  mode: AuthMode;
  via: 'session' | 'proxy' | 'token' | 'none';
  /** The server-side session (login mode). */
  sid?: string;
}

export type AuthOutcome =
  | { ok: true; principal: Principal }
  | { ok: false; status: 401 | 503; code: 'unauthorized' | 'auth_misconfigured' | 'redis_unavailable'; message: string };

/** Everyone, with authentication off: one frozen answer, nothing to build per request. */
const NO_AUTH: AuthOutcome = Object.freeze({ ok: true, principal: Object.freeze({ user: 'anonymous', role: 'operator', mode: 'none', via: 'none' }) });

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

async function fromSession(req: Request, cfg: AuthConfig): Promise<AuthOutcome> {
  const value = cookieValue(req.headers.get('cookie'), SESSION_COOKIE);
  if (value === null) return denied('not signed in');
  const claims = readSession(value, cfg.sessionSecret, Math.floor(Date.now() / 1000));
  if (typeof claims === 'string') return denied(`${claims}: sign in again`);
  // Against the configuration as it is now, so a removed user or a changed role or password
  // ends the session as soon as this process has re-read the users.
  const user = cfg.users.get(claims.u);
  if (!user || user.role !== claims.r || !safeEqual(userFingerprint(user, cfg.sessionSecret), claims.fp)) {
    return denied('session no longer valid (the user was removed, or their role or password changed): sign in again');
  }
  let alive: boolean;
  try {
    alive = await touchSession(getRedis(), { user: claims.u, sid: claims.sid, expMs: claims.exp * 1000 }, cfg.sessionIdleMinutes * 60_000);
  } catch (err) {
    return { ok: false, status: 503, code: 'redis_unavailable', message: `sessions are kept in Redis, which did not answer: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!alive) return denied(`session ended (signed out, signed out everywhere, or unused for ${cfg.sessionIdleMinutes} minutes): sign in again`);
  return { ok: true, principal: { user: claims.u, role: claims.r, mode: 'login', via: 'session', sid: claims.sid } };
}

/**
 * Who `req` acts for. `path` is the app path (without the base path). In memory (an HMAC or a
 * header comparison; the users file costs one stat when it is in use), plus, for a session
 * cookie, one PEXPIRE at most once per second per session and process (session-store.ts), so
 * proxy.ts, the layout and every route handler can all run it.
 */
export async function authenticate(req: Request, path: string): Promise<AuthOutcome> {
  try {
    const cfg = authConfig();
    if (cfg.metricsToken && METRICS_PATHS.has(path)) {
      const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1]?.trim();
      if (bearer !== undefined) {
        if (!safeEqual(bearer, cfg.metricsToken)) return denied('metrics token does not match ASYNQLENS_METRICS_TOKEN');
        return { ok: true, principal: { user: 'metrics', role: 'viewer', mode: cfg.mode, via: 'token' } };
      }
    }
    if (cfg.mode === 'none') return NO_AUTH;
    if (cfg.mode === 'proxy' && cfg.proxy) return fromProxy(req, cfg.proxy, 'proxy');
    return await fromSession(req, cfg);
  } catch (err) {
    if (err instanceof AuthConfigError) return { ok: false, status: 503, code: 'auth_misconfigured', message: err.message };
    throw err;
  }
}

let base: { raw: string; path: string } | undefined;

/** ASYNQLENS_BASE_PATH trimmed, kept while the variable is unchanged (a regular expression less per request). */
function basePathOf(raw: string): string {
  if (base?.raw !== raw) base = { raw, path: raw.trim().replace(/\/+$/, '') };
  return base.path;
}

/** The app path of a URL path: the base path removed (Next strips it for pages, not for req.url). */
export function appPath(pathname: string): string {
  const base = basePathOf(process.env.ASYNQLENS_BASE_PATH ?? '');
  if (base && (pathname === base || pathname.startsWith(`${base}/`))) return pathname.slice(base.length) || '/';
  return pathname;
}

/** Paths open to everyone: the sign-in page and API, and the health probes (/api/health, /api/health/live). */
export function isPublicPath(path: string): boolean {
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  return path === '/login' || under('/api/health') || under('/api/auth');
}
