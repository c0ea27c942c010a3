import 'server-only';
import { env } from './env';
import { redisTarget } from './redis-target';

/** The first configuration mistake, named with its variable and rule, or null when all is well. */
export function configurationProblem(): string | null {
  try {
    env();
    redisTarget();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return null;
}
