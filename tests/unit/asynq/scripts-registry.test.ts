import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LUA_SCRIPTS } from '@/lib/asynq/scripts/registry.gen';
import { declaredKeyCount, renderRegistry } from '@/lib/asynq/scripts/render-registry';

const dir = join(import.meta.dirname, '../../../lib/asynq/scripts');
const sources = readdirSync(join(dir, 'lua'))
  .filter((f) => f.endsWith('.lua'))
  .sort()
  .map((file) => ({ file, lua: readFileSync(join(dir, 'lua', file), 'utf8') }));
const includes = Object.fromEntries(
  readdirSync(join(dir, 'lua', 'includes'))
    .filter((f) => f.endsWith('.lua'))
    .map((f) => [f.replace(/\.lua$/, ''), readFileSync(join(dir, 'lua', 'includes', f), 'utf8')]),
);

describe('Lua script registry', () => {
  it('is up to date with the .lua files (run `npm run gen:lua`)', () => {
    expect(readFileSync(join(dir, 'registry.gen.ts'), 'utf8')).toBe(renderRegistry(sources, includes));
  });

  it('declares in each header exactly the keys the body uses', () => {
    for (const { file, lua } of sources) {
      const body = lua.replace(/--\[\[[\s\S]*?\]\]/, '');
      const used = Math.max(0, ...[...body.matchAll(/KEYS\[(\d+)\]/g)].map((m) => Number(m[1])));
      const declared = declaredKeyCount(lua);
      if (declared >= 0) expect(used, file).toBe(declared);
    }
    expect(Object.keys(LUA_SCRIPTS).length).toBe(sources.length);
  });
});
