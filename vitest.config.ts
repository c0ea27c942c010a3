import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { asynqBuilds } from './tests/interop/asynq-builds';
import { consumerDir, fromSource, installedAliases, noCoreSource, PACKAGE_SUITE } from './tests/package/package-project.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const common = [
  { find: /^@\//, replacement: root },
  // `server-only` throws outside React Server Components; route handlers are called directly
  // in integration tests, so it becomes an empty module here.
  { find: /^server-only$/, replacement: fileURLToPath(new URL('./tests/support/server-only-stub.ts', import.meta.url)) },
];
// The console and the tests import the core by its package name; here it is the source, so a
// change to lib/asynq needs no build (the `package` project tests the built package).
const alias = [
  ...common,
  { find: /^@asynqlens\/asynq$/, replacement: `${root}lib/asynq/index.ts` },
  { find: /^@asynqlens\/asynq\//, replacement: `${root}lib/asynq/` },
];

// One redis-server for the run; each test file works in its own database number.
const redisTest = {
  environment: 'node' as const,
  globalSetup: ['tests/support/global-redis.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};

// Route tests read Redis right after changing it; shared snapshots are tested on their own.
// Authentication is off unless a test turns it on (tests/integration/auth); so is the audit log,
// which would add a key to the Redis states compared with Go's.
const env = { ASYNQLENS_SNAPSHOT_MS: '0', ASYNQLENS_AUTH: 'none', ASYNQLENS_AUDIT: 'off' };

// The integration and package projects judge by the newest asynq release
// (tests/go/asynq-versions.txt); each older release gets the interop suite again (the package's
// suites included, on the source), against the Go program built on it. Cluster and Sentinel are
// left out there: they test the Redis topology, which no release changed.
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
        test: {
          ...redisTest,
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/interop/**/*.test.ts'],
          exclude: PACKAGE_SUITE,
          env,
        },
      },
      {
        plugins: fromSource() ? [] : [noCoreSource()],
        resolve: { alias: fromSource() ? alias : [...common, ...installedAliases(consumerDir(root), root)] },
        test: {
          ...redisTest,
          name: 'package',
          include: PACKAGE_SUITE,
          globalSetup: ['tests/package/install.ts', ...redisTest.globalSetup],
          hookTimeout: 240_000,
        },
      },
      ...olderAsynq.map(({ version }) => ({
        resolve: { alias },
        test: {
          ...redisTest,
          name: `interop asynq ${version}`,
          include: ['tests/interop/**/*.test.ts'],
          // bulk-slowlog times our own calls and runs no Go: once is enough.
          exclude: ['tests/interop/cluster.test.ts', 'tests/interop/sentinel.test.ts', 'tests/interop/worker/cluster-server.test.ts', 'tests/interop/write/bulk-slowlog.test.ts'],
          env: { ...env, ASYNQLENS_ASYNQ: version },
        },
      })),
    ],
  },
});
