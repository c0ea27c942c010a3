/**
 * Vitest global setup: one private redis-server for the whole run, with enough databases for
 * every test file to own one (see tests/support/test-redis.ts).
 */
import type { TestProject } from 'vitest/node';
import { startRedisServer, type RunningRedis } from '../../scripts/support/redis-server';

let server: RunningRedis | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startRedisServer({ label: 'vitest', args: ['--databases', '128'] });
  project.provide('redisPort', server.port);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisPort: number;
  }
}
