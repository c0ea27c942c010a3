import 'server-only';
import { auditEnabled, auditMax } from '../audit/log';
import { describeAuthProblem } from '../auth/problem';
import { env } from './env';
import { allowedHosts } from '../http/host-check';
import { frameAncestors } from '../http/security-headers';
import { redisTarget } from '../redis/target';

/** The first configuration mistake, named with its variable and rule, or null when all is well. */
export function configurationProblem(): string | null {
  try {
    env();
    redisTarget();
    auditEnabled();
    auditMax();
    allowedHosts();
    frameAncestors();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return describeAuthProblem();
}

/** Stops the process with one line naming the problem (the server must not serve half-configured). */
export function exitOnConfigurationProblem(): void {
  const problem = configurationProblem();
  if (problem === null) return;
  console.error(`asynqlens: configuration error: ${problem}`);
  process.exit(1);
}
