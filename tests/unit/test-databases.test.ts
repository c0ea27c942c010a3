/**
 * Integration files share one redis-server and run in parallel, each in a database of its own
 * (tests/support/test-redis.ts). Two files on one number flush each other's keys mid-test, which
 * shows up as rare, unrelated failures; this keeps the numbers apart. Every `const …DB = N` counts, as does each helper call. Suites that start their own
 * servers (Sentinel) are left out: their database lives on their own deployment.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const OWN_SERVERS = /(^|\/)sentinel/;
const USES = /(?:useTestRedis|testRedisUrl|useConsoleRoutes)\((\d+)|\bconst [A-Z_]*DB = (\d+)/g;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('test databases', () => {
  it('no two integration files use the same database number', () => {
    const owners = new Map<number, Set<string>>();
    for (const file of [...files(join(root, 'tests/integration')), ...files(join(root, 'tests/interop'))]) {
      const name = relative(root, file);
      if (OWN_SERVERS.test(name)) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(USES)) {
        const db = Number(m[1] ?? m[2]);
        owners.set(db, (owners.get(db) ?? new Set()).add(name));
      }
    }
    const shared = [...owners].filter(([, names]) => names.size > 1).map(([db, names]) => `${db}: ${[...names].join(', ')}`);
    expect(shared).toEqual([]);
    expect(owners.size).toBeGreaterThan(20);
  });
});
