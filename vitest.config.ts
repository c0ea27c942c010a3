import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const alias = {
  '@': root,
  // `server-only` throws outside React Server Components; route handlers are called directly
  // in integration tests, so it becomes an empty module here.
  'server-only': fileURLToPath(new URL('./tests/support/server-only-stub.ts', import.meta.url)),
};

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
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/interop/**/*.test.ts'],
          environment: 'node',
          // One redis-server for the run; each test file works in its own database number.
          globalSetup: ['tests/support/global-redis.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Route tests read Redis right after changing it; shared snapshots are tested on their own.
          // Authentication is off unless a test turns it on (tests/integration/auth); so is the
          // audit log, which would add a key to the Redis states compared with Go's.
          env: { ASYNQLENS_SNAPSHOT_MS: '0', ASYNQLENS_AUTH: 'none', ASYNQLENS_AUDIT: 'off' },
        },
      },
    ],
  },
});
