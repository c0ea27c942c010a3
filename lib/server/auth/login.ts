import 'server-only';
import type { LoginBody, MeDto } from '@/lib/contract/auth';
import { HttpError } from '../http/errors';
import { assertJsonBody, assertSameSite } from '../http/guards';
import { authConfig, type AuthConfig } from './config';
import { checkCredentials } from './password';
import { appPath, authenticate } from './principal';
import { isHttps, setCookieHeader, signSession } from './session';
import { clearFailures, clientOf, lockedFor, recordFailure, throttleKey } from './throttle';

function cookieSecure(cfg: AuthConfig, req: Request): boolean {
  if (cfg.cookieSecure === 'auto') return isHttps(req);
  return cfg.cookieSecure === 'true';
}

const cookiePath = (cfg: AuthConfig): string => cfg.basePath || '/';

/**
 * Checks a user name and password and answers 204 with the session cookie. Every wrong pair
 * gets the same 401 (no hint whether the name exists); after repeated failures from one client
 * for one name, 429 too_many_attempts with Retry-After. Refuses other sites and non-JSON bodies
 * like every mutation, so a page elsewhere cannot sign a browser in as someone else.
 */
export async function login(req: Request, body: LoginBody): Promise<Response> {
  assertSameSite(req);
  assertJsonBody(req);
  const cfg = authConfig();
  if (cfg.mode !== 'login') throw new HttpError(400, 'login_disabled', `sign-in with a password is off: ASYNQLENS_AUTH is ${cfg.mode}`);
  const key = throttleKey(body.username, clientOf(req));
  const wait = lockedFor(key);
  if (wait > 0) throw new HttpError(429, 'too_many_attempts', `too many failed sign-ins: try again in ${wait} s`, { retryAfterSeconds: wait });
  const user = await checkCredentials(cfg.users, body.username, body.password);
  if (!user) {
    recordFailure(key);
    throw new HttpError(401, 'unauthorized', 'wrong user name or password');
  }
  clearFailures(key);
  const now = Math.floor(Date.now() / 1000);
  const maxAge = Math.round(cfg.sessionHours * 3600);
  const value = signSession({ u: user.name, r: user.role, iat: now, exp: now + maxAge }, cfg.sessionSecret);
  return new Response(null, { status: 204, headers: { 'set-cookie': setCookieHeader(value, { path: cookiePath(cfg), maxAgeSeconds: maxAge, secure: cookieSecure(cfg, req) }) } });
}

/** Ends the session: 204 with the cookie expired (the cookie is all there is; nothing is kept server-side). */
export function logout(req: Request): Response {
  assertSameSite(req);
  const cfg = authConfig();
  return new Response(null, { status: 204, headers: { 'set-cookie': setCookieHeader('', { path: cookiePath(cfg), maxAgeSeconds: 0, secure: cookieSecure(cfg, req) }) } });
}

/** Who the caller is (401 when nobody). */
export function me(req: Request): MeDto {
  const outcome = authenticate(req, appPath(new URL(req.url).pathname));
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.code, outcome.message);
  const { user, role, mode } = outcome.principal;
  return { user, role, mode };
}
