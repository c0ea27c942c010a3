/**
 * Whether the standalone build (what the launcher runs) is newer than the app's sources, so the
 * demo and the UI bench build only when something changed.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** The last file `npm run build` writes (scripts/finish-build.mjs copies the launcher in). */
export const STANDALONE_LAUNCHER = join(root, '.next', 'standalone', 'bin', 'asynqlens.mjs');

/** Newest modification time under the app's source folders. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of ['app', 'components', 'lib']) if (existsSync(join(root, d))) walk(join(root, d));
  return newest;
}

/** True when a complete standalone build exists and no source under app/, components/, lib/ is newer. */
export function standaloneBuildIsFresh(): boolean {
  return existsSync(STANDALONE_LAUNCHER) && statSync(STANDALONE_LAUNCHER).mtimeMs > newestSource();
}
