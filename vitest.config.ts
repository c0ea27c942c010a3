import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { asynqBuilds } from './tests/interop/asynq-builds';

const root = fileURLToPath(new URL('.', import.meta.url));
const alias = {
  '@': root,
  // `server-only` throws outside React Server Components; route handlers are called directly
  // in integration tests, so it becomes an empty module here.
  'server-only': fileURLToPath(new URL('./tests/support/server-only-stub.ts', import.meta.url)),
};

// Route tests read Redis right after changing it; shared snapshots are tested on their own.
// Authentication is off unless a test turns it on (tests/integration/auth); so is the audit log,
// which would add a key to the Redis states compared with Go's.
const env = { ASYNQLENS_SNAPSHOT_MS: '0', ASYNQLENS_AUTH: 'none', ASYNQLENS_AUDIT: 'off' };

const redisProject = {
  environment: 'node' as const,
  // One redis-server per project; each test file works in its own database number.
  globalSetup: ['tests/support/global-redis.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};

// The integration project judges by the newest asynq release (tests/go/asynq-versions.txt);
// each older release gets the interop suite again, against the Go program built on it. Cluster
// and Sentinel are left out there: they test the Redis topology, which no release changed.
const [, ...olderAsynq] = asynqBuilds();

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: { alias },
        test: { ...redisProject, name: 'integration', include: ['tests/integration/**/*.test.ts', 'tests/interop/**/*.test.ts'], env },
      },
      ...olderAsynq.map(({ version }) => ({
        resolve: { alias },
        test: {
          ...redisProject,
          name: `interop asynq ${version}`,
          include: ['tests/interop/**/*.test.ts'],
          exclude: ['tests/interop/cluster.test.ts', 'tests/interop/sentinel.test.ts', 'tests/interop/worker/cluster-server.test.ts'],
          env: { ...env, ASYNQLENS_ASYNQ: version },
        },
      })),
    ],
  },
});
