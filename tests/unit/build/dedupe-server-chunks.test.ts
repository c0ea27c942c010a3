import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { dedupeServerChunks } from '../../../scripts/support/dedupe-server-chunks.mjs';

function server(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'dedupe-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const shared = 'module.exports=[1,(e)=>{e.x("a")}];';
const entry = (chunk: string) => `var R=require("../../chunks/[turbopack]_runtime.js")("server/app/x/route.js")\nR.c("server/chunks/${chunk}")\n`;

describe('dedupeServerChunks', () => {
  it('keeps one of the chunks identical but for their source-map comment and points every entry at it', () => {
    const dir = server({
      'chunks/[root]__a._.js': `${shared}\n\n//# sourceMappingURL=%5Broot%5D__a._.js.map`,
      'chunks/[root]__a._.js.map': '{}',
      'chunks/[root]__b._.js': `${shared}\n\n//# sourceMappingURL=%5Broot%5D__b._.js.map`,
      'chunks/[root]__b._.js.map': '{}',
      'chunks/other._.js': 'module.exports=[2,(e)=>{e.x("b")}];',
      'app/one/route.js': entry('[root]__a._.js'),
      'app/two/route.js': entry('[root]__b._.js'),
      'app/two/route.js.nft.json': '{"files":["../../chunks/[root]__b._.js"]}',
    });
    const result = dedupeServerChunks(dir);
    expect(result.removed).toBe(1);
    expect(existsSync(join(dir, 'chunks/[root]__b._.js'))).toBe(false);
    expect(existsSync(join(dir, 'chunks/[root]__b._.js.map'))).toBe(false);
    expect(existsSync(join(dir, 'chunks/other._.js'))).toBe(true);
    expect(readFileSync(join(dir, 'app/two/route.js'), 'utf8')).toBe(entry('[root]__a._.js'));
    expect(readFileSync(join(dir, 'app/two/route.js.nft.json'), 'utf8')).toContain('[root]__a._.js');
    expect(readFileSync(join(dir, 'app/one/route.js'), 'utf8')).toBe(entry('[root]__a._.js'));
  });

  it('leaves chunks that differ in code alone', () => {
    const dir = server({
      'chunks/a.js': `${shared}\n//# sourceMappingURL=a.js.map`,
      'chunks/b.js': `${shared.replace('"a"', '"b"')}\n//# sourceMappingURL=b.js.map`,
      'app/route.js': entry('b.js'),
    });
    expect(dedupeServerChunks(dir)).toEqual({ removed: 0, bytes: 0 });
    expect(existsSync(join(dir, 'chunks/b.js'))).toBe(true);
  });
});
