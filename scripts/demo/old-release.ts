/**
 * An older release of the demo's worker, still running on `low`: built before `metrics:rollup`
 * had a handler, so every rollup it takes fails with `handler not found` while the current
 * release handles the rest — the fleet conflict the Routing and Failures pages name. It
 * publishes its patterns with its server record like any TypeScript task server. After
 * `seconds` it is retired (the fix's first half); re-running the failed rollups from the
 * Failures page is the second, after which the verdict turns to handled.
 */
import type { Redis } from 'ioredis';
import { Server, ServeMux, type ServerConfig } from '../../lib/asynq/worker';
import { demoMux } from './handlers';

/** The type the older release lacks. */
export const MISSING_IN_OLD_RELEASE = 'metrics:rollup';

/** Runs the older release with `config` (the current release's, on its own queues) for `seconds`. */
export function startOldRelease(redis: Redis, config: ServerConfig, seconds: number): { stop(): Promise<void> } {
  const current = demoMux(redis);
  const mux = new ServeMux();
  for (const p of current.patterns().filter((x) => x !== MISSING_IN_OLD_RELEASE)) mux.handle(p, current);
  const server = new Server(redis, config);
  const started = server.start(mux);
  const timer = setTimeout(() => {
    console.log(`  demo: the older release (no ${MISSING_IN_OLD_RELEASE} handler) is retired; re-run its failures from the Failures page`);
    void started.then(() => server.shutdown());
  }, seconds * 1000);
  return {
    async stop() {
      clearTimeout(timer);
      await started.catch(() => {});
      await server.shutdown();
    },
  };
}
