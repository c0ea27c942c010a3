/**
 * The `package` test project: interop suites that import the core only as `@asynqlens/asynq`,
 * run against the package as users get it — `npm pack`ed and installed from the tarball into
 * an empty project (tests/package/install.ts) — rather than against lib/asynq's source.
 * `ASYNQLENS_PACKAGE=source` runs them against the source instead (no build, no install), for
 * quick work on the core; `ASYNQLENS_PACKAGE=reuse` skips the build and install when one exists.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

export const PACKAGE_NAME = '@asynqlens/asynq';

/** The suites that run against the installed package, and only there. */
export const PACKAGE_SUITE = [
  'tests/package/**/*.test.ts',
  'tests/interop/package/**/*.test.ts',
  'tests/interop/worker/outcomes.test.ts',
  'tests/interop/worker/shared-queue.test.ts',
  'tests/interop/worker/go-inspector.test.ts',
];

export const fromSource = (): boolean => process.env.ASYNQLENS_PACKAGE === 'source';

/** The empty project the tarball is installed into: one per checkout, rebuilt every run. */
export function consumerDir(root: string): string {
  return join(tmpdir(), `asynqlens-package-${createHash('sha256').update(resolve(root)).digest('hex').slice(0, 12)}`);
}

/**
 * The package name (and ioredis, so the whole suite shares the installed dependency tree) as
 * files of the installed package: one alias per entry of its `exports`. (Node's own resolution
 * through the tarball's `exports` is tested in tests/package/tarball.test.ts.)
 */
export function installedAliases(dir: string, root: string): { find: RegExp; replacement: string }[] {
  const installed = join(dir, 'node_modules', PACKAGE_NAME);
  const manifest = JSON.parse(readFileSync(join(root, 'packages/asynq/package.json'), 'utf8')) as { exports: Record<string, string | { default: string }> };
  const entries = Object.entries(manifest.exports).flatMap(([sub, t]) => (typeof t === 'object' ? [[sub, t.default] as const] : []));
  return [
    ...entries.map(([sub, file]) => ({ find: new RegExp(`^${(PACKAGE_NAME + sub.slice(1)).replace(/[/.]/g, '\\$&')}$`), replacement: join(installed, file) })),
    { find: /^ioredis$/, replacement: join(dir, 'node_modules/ioredis') },
  ];
}

/** Fails any test that loads the core's source, so a suite cannot pass on lib/asynq by a stray import. */
export function noCoreSource(): Plugin {
  return {
    name: 'asynqlens:no-core-source',
    load(id) {
      if (id.includes('/lib/asynq/')) throw new Error(`${id}: the package suite loaded the core's source; import it as ${PACKAGE_NAME}`);
      return null;
    },
  };
}
