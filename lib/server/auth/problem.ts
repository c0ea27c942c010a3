import 'server-only';
import { AuthConfigError, authConfig } from './config';

/**
 * Why authentication cannot work as configured (login mode without users, a malformed user
 * entry, a short secret, proxy mode without its header or secret), or null when it can. The
 * launcher calls this to refuse to start; until it is fixed every request but /api/health
 * answers 503 auth_misconfigured with the same message.
 */
export function describeAuthProblem(): string | null {
  try {
    authConfig();
    return null;
  } catch (err) {
    if (err instanceof AuthConfigError) return err.message;
    throw err;
  }
}
