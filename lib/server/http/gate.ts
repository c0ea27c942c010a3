import 'server-only';
import { AuthConfigError, authConfig, type AuthConfig } from '../auth/config';
import { isHttps } from '../auth/session';
import { hostRefusal } from './host-check';
import { undecodablePath } from './request-input';
import { jsonAnswer } from './responses';
import { HSTS, securityPolicy } from './security-headers';

/**
 * The checks every request meets before anything else, and the headers every answer carries:
 * one implementation for both ways a request arrives. proxy.ts applies them to pages (and to
 * any path Next routes itself); route() applies them to every API request, which is what lets
 * the launcher hand an API request straight to its route (bin/api-lane.mjs) without Next's
 * router and proxy in front. Through Next an API request meets them twice: string checks only.
 */

/** The settings, or the error that makes them unusable (the Host rule and authentication each answer it their way). */
export function currentAuth(): AuthConfig | AuthConfigError {
  try {
    return authConfig();
  } catch (err) {
    if (err instanceof AuthConfigError) return err;
    throw err;
  }
}

/**
 * The refusal of a request whose Host the console does not answer to (421) or whose path has a
 * segment that does not decode (400), or null. `machine` answers in the API's JSON envelope,
 * else in plain text. `path` is the app path (no base path).
 */
export function gateRefusal(headers: Headers, urlHost: string, path: string, machine: boolean): Response | null {
  const cfg = currentAuth();
  // A broken configuration is not `none`, so the Host rule gets the stricter reading.
  const misdirected = hostRefusal(headers, urlHost, cfg instanceof AuthConfigError ? 'login' : cfg.mode);
  if (misdirected !== null) {
    // 421: this server is not the one for that authority (RFC 9110 §15.5.20), which is exactly
    // the case; 403 stays the answer about who may do what.
    if (machine) return jsonAnswer({ error: { code: 'misdirected_request', message: misdirected } }, { status: 421 });
    return new Response(`${misdirected}\n`, { status: 421, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  // A segment that does not decode (%FF): Next would answer its own bare 500.
  const undecodable = undecodablePath(path);
  if (undecodable !== null) {
    if (machine) return jsonAnswer({ error: { code: 'invalid_argument', message: undecodable, field: 'path' } }, { status: 400 });
    return new Response(`${undecodable}\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return null;
}

/** Sets the security headers on an answer: `csp` (a page's, with its nonce, or null for the scriptless one), the fixed ones, HSTS over https. */
export function secureHeaders<A extends { headers: { set(name: string, value: string): void } }>(res: A, req: Request, csp: string | null): A {
  const policy = securityPolicy(process.env.NODE_ENV === 'development');
  res.headers.set('content-security-policy', csp ?? policy.scriptless);
  for (const [name, value] of policy.fixed) res.headers.set(name, value);
  if (isHttps(req)) res.headers.set(...HSTS);
  return res;
}
