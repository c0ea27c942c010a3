import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ConfiguredUser, Role } from './users';

export const SESSION_COOKIE = 'asynqlens_session';

/**
 * What a session cookie carries: user, role, issued-at and expiry (unix seconds), the id of its
 * server-side record (session-store.ts) and the user's fingerprint when it was issued.
 */
export interface SessionClaims {
  u: string;
  r: Role;
  iat: number;
  exp: number;
  sid: string;
  fp: string;
}

const mac = (body: string, secret: string): Buffer => createHmac('sha256', secret).update(body).digest();

/** A new session id: 128 random bits. */
export const newSessionId = (): string => randomBytes(16).toString('base64url');

/**
 * A digest of what the user is configured as (name, role, password hash), keyed with the
 * session secret. A cookie carries the one it was issued with; a changed password or role
 * changes it, which ends every session issued before, on every replica, without Redis.
 */
export function userFingerprint(user: ConfiguredUser, secret: string): string {
  const { N, r, p, salt, hash } = user.hash;
  const what = [user.name, user.role, N, r, p, salt.toString('base64'), hash.toString('base64')].join('\0');
  return createHmac('sha256', secret).update(what).digest('base64url').slice(0, 22);
}

/** `base64url(JSON claims) + "." + base64url(HMAC-SHA256(secret, that first part))`. */
export function signSession(claims: SessionClaims, secret: string): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${mac(body, secret).toString('base64url')}`;
}

function isClaims(x: unknown): x is SessionClaims {
  const c = x as Partial<SessionClaims> | null;
  return typeof c === 'object' && c !== null && typeof c.u === 'string' && (c.r === 'viewer' || c.r === 'operator') && typeof c.iat === 'number' && typeof c.exp === 'number' &&
    typeof c.sid === 'string' && typeof c.fp === 'string';
}

/** The claims of a cookie value whose signature holds and which has not expired, or why not. */
export function readSession(value: string, secret: string, nowSeconds: number): SessionClaims | string {
  const dot = value.indexOf('.');
  if (dot <= 0) return 'malformed session';
  const body = value.slice(0, dot);
  const sig = Buffer.from(value.slice(dot + 1), 'base64url');
  const want = mac(body, secret);
  if (sig.length !== want.length || !timingSafeEqual(sig, want)) return 'bad session signature';
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return 'malformed session';
  }
  if (!isClaims(claims)) return 'malformed session';
  if (claims.exp <= nowSeconds) return 'session expired';
  return claims;
}

/** The value of cookie `name` in a Cookie header, or null. */
export function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Whether the browser reached us over https: directly, or per the proxy's x-forwarded-proto. */
export function isHttps(req: Request): boolean {
  const forwarded = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === 'https';
  // A request's url is an absolute URL as serialised, scheme in lower case: its prefix is its
  // protocol. Parsing it whole again cost 3% of a task page's CPU (every answer asks this).
  return req.url.startsWith('https:');
}

export interface CookieOptions {
  path: string;
  maxAgeSeconds: number;
  secure: boolean;
}

/**
 * A Set-Cookie value. HttpOnly keeps it from page scripts. SameSite=Lax rather than Strict:
 * Strict would drop the cookie when someone follows a link to a task from chat or an alert,
 * sending a signed-in user to the login page; Lax still withholds it from every cross-site
 * POST/PATCH/DELETE, and the API additionally refuses mutations from other origins and
 * non-JSON bodies (lib/server/http/guards.ts), so Lax costs nothing against CSRF here.
 */
export function setCookieHeader(value: string, o: CookieOptions): string {
  return [`${SESSION_COOKIE}=${value}`, `Path=${o.path}`, `Max-Age=${o.maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(o.secure ? ['Secure'] : [])].join('; ');
}
