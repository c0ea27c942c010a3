/**
 * Writes lib/asynq/scripts/registry.gen.ts from the .lua files beside it, so the scripts ship
 * inside the JavaScript bundle (Next.js does not copy loose files) and each carries its key
 * count. `--check` exits 1 when the committed file is stale instead of writing it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderRegistry } from '../lib/asynq/scripts/render-registry';

const dir = join(import.meta.dirname, '../lib/asynq/scripts');
const luaDir = join(dir, 'lua');
const sources = readdirSync(luaDir)
  .filter((f) => f.endsWith('.lua'))
  .sort()
  .map((file) => ({ file, lua: readFileSync(join(luaDir, file), 'utf8') }));
const includes = Object.fromEntries(
  readdirSync(join(luaDir, 'includes'))
    .filter((f) => f.endsWith('.lua'))
    .map((f) => [f.replace(/\.lua$/, ''), readFileSync(join(luaDir, 'includes', f), 'utf8')]),
);
const text = renderRegistry(sources, includes);
const target = join(dir, 'registry.gen.ts');

if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== text) {
    console.error('registry.gen.ts is stale: run `npm run gen:lua`');
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  console.log(`wrote ${sources.length} scripts to ${target}`);
}
