import 'server-only';
import { HttpError } from '../http/errors';
import { appPath, authenticate, isPublicPath, type Principal } from './principal';

/**
 * The route wrapper's check (defence in depth behind proxy.ts, which already turned away
 * requests without an identity): the caller's principal, null on the public paths (health,
 * sign-in), or a 401/503 HttpError. `pathname` is the request URL's, base path included.
 */
export async function requirePrincipal(req: Request, pathname: string): Promise<Principal | null> {
  const path = appPath(pathname);
  if (isPublicPath(path)) return null;
  const outcome = await authenticate(req, path);
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.code, outcome.message);
  return outcome.principal;
}

/** 403 forbidden_role unless the principal may change Redis. */
export function assertMayMutate(principal: Principal | null): void {
  if (principal && principal.role !== 'operator') {
    throw new HttpError(403, 'forbidden_role', `the ${principal.role} role is read-only: ${principal.user} cannot make changes (operators can)`);
  }
}
