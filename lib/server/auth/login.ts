import 'server-only';
import type { LoginBody, LogoutEverywhereDto, MeDto } from '@/lib/contract/auth';
import { HttpError } from '../http/errors';
import { assertJsonBody, assertSameSite } from '../http/guards';
import { getRedis } from '../redis/client';
import { addressKey, clientAddress } from './client-address';
import { authConfig, type AuthConfig } from './config';
import { checkCredentials } from './password';
import { appPath, authenticate, type Principal } from './principal';
import { SESSION_COOKIE, cookieValue, isHttps, newSessionId, readSession, setCookieHeader, signSession, userFingerprint } from './session';
import { createSession, endAllSessions, endSession } from './session-store';
import { admit, settle } from './throttle';

function cookieSecure(cfg: AuthConfig, req: Request): boolean {
  if (cfg.cookieSecure === 'auto') return isHttps(req);
  return cfg.cookieSecure === 'true';
}

const cookiePath = (cfg: AuthConfig): string => cfg.basePath || '/';

const expiredCookie = (cfg: AuthConfig, req: Request): string => setCookieHeader('', { path: cookiePath(cfg), maxAgeSeconds: 0, secure: cookieSecure(cfg, req) });

/**
 * Checks a user name and password and answers 204 with the session cookie. Every wrong pair
 * gets the same 401 (no hint whether the name exists); an attempt the throttle holds back
 * (throttle.ts) gets 429 too_many_attempts with Retry-After and no password check. Refuses
 * other sites and non-JSON bodies like every mutation, so a page elsewhere cannot sign a
 * browser in as someone else. Redis: two or three round trips for the throttle, one for the
 * new session.
 */
export async function login(req: Request, body: LoginBody): Promise<Response> {
  assertSameSite(req);
  assertJsonBody(req);
  const cfg = authConfig();
  if (cfg.mode !== 'login') throw new HttpError(400, 'login_disabled', `sign-in with a password is off: ASYNQLENS_AUTH is ${cfg.mode}`);
  const redis = getRedis();
  const attempt = { addr: addressKey(clientAddress(req, cfg.trustedProxies)), account: cfg.users.has(body.username) ? body.username : '?' };
  const gate = await admit(redis, attempt);
  if (!gate.ok) {
    const wait = Math.ceil(gate.retryAfterMs / 1000);
    throw new HttpError(429, 'too_many_attempts', `too many failed sign-ins: try again in ${wait} s`, { retryAfterSeconds: wait });
  }
  let user: Awaited<ReturnType<typeof checkCredentials>> = null;
  try {
    user = await checkCredentials(cfg.users, body.username, body.password);
  } finally {
    await settle(redis, attempt, user === null);
  }
  if (!user) throw new HttpError(401, 'unauthorized', 'wrong user name or password');
  const now = Date.now();
  const maxAge = Math.round(cfg.sessionHours * 3600);
  const iat = Math.floor(now / 1000);
  const claims = { u: user.name, r: user.role, iat, exp: iat + maxAge, sid: newSessionId(), fp: userFingerprint(user, cfg.sessionSecret) };
  // Expiry to the millisecond in the index, so that the cap ends the oldest sessions first.
  await createSession(redis, { user: user.name, sid: claims.sid, expMs: now + maxAge * 1000 }, cfg.sessionIdleMinutes * 60_000, now);
  const value = signSession(claims, cfg.sessionSecret);
  return new Response(null, { status: 204, headers: { 'set-cookie': setCookieHeader(value, { path: cookiePath(cfg), maxAgeSeconds: maxAge, secure: cookieSecure(cfg, req) }) } });
}

/**
 * Ends the session: its record in Redis is deleted (one MULTI), so a copy of the cookie stops
 * working too, and the browser's cookie is expired. 204 also without a valid session.
 */
export async function logout(req: Request): Promise<Response> {
  assertSameSite(req);
  const cfg = authConfig();
  const value = cookieValue(req.headers.get('cookie'), SESSION_COOKIE);
  const claims = cfg.mode === 'login' && value !== null ? readSession(value, cfg.sessionSecret, Math.floor(Date.now() / 1000)) : null;
  if (claims !== null && typeof claims !== 'string') await endSession(getRedis(), claims.u, claims.sid);
  return new Response(null, { status: 204, headers: { 'set-cookie': expiredCookie(cfg, req) } });
}

async function principalOf(req: Request): Promise<Principal> {
  const outcome = await authenticate(req, appPath(new URL(req.url).pathname));
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.code, outcome.message);
  return outcome.principal;
}

/** Ends every session of the signed-in user, this one included (two round trips); says how many. */
export async function logoutEverywhere(req: Request): Promise<Response> {
  assertSameSite(req);
  const principal = await principalOf(req);
  if (principal.via !== 'session') throw new HttpError(400, 'login_disabled', `there are no sessions to end: ${principal.user} is not signed in with a password (ASYNQLENS_AUTH is ${principal.mode})`);
  const cfg = authConfig();
  const ended = await endAllSessions(getRedis(), principal.user);
  const body: LogoutEverywhereDto = { user: principal.user, ended };
  return Response.json(body, { headers: { 'set-cookie': expiredCookie(cfg, req) } });
}

/** Who the caller is (401 when nobody). */
export async function me(req: Request): Promise<MeDto> {
  const { user, role, mode } = await principalOf(req);
  return { user, role, mode };
}
