/**
 * The API lane (bin/api-lane.mjs) calls a route's handlers without proxy.ts in front, which is
 * safe only because route() applies the Host rule, identity, input bounds and security headers
 * itself. So every handler every app/api/**\/route.ts exports must be built by route(): a bare
 * `export function GET` would be served by the lane with none of that.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const METHOD = /export\s+(?:async\s+)?(?:const|function|let|var)\s+(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b([^\n]*)/g;

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(join(dir, e.name)) : e.name === 'route.ts' ? [join(dir, e.name)] : [],
  );
}

describe('API route handlers', () => {
  const files = routeFiles(join(root, 'app', 'api'));

  it('are found (the walk works)', () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it('are every one built by route()', () => {
    const bare: string[] = [];
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      expect(source, relative(root, file)).toMatch(METHOD);
      for (const m of source.matchAll(METHOD)) {
        if (!/^\s*=\s*route\(/.test(m[2] ?? '')) bare.push(`${relative(root, file)}: ${m[0].trim()}`);
      }
      expect(source, `${relative(root, file)} re-exports a handler`).not.toMatch(/export\s*\{[^}]*\b(GET|POST|PUT|PATCH|DELETE)\b/);
    }
    expect(bare).toEqual([]);
  });
});
