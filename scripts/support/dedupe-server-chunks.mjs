/**
 * Turbopack writes the chunk that every API route shares once per route: 18 byte-identical files
 * of about 0.5 MB that differ only in their source-map comment. Each route's entry loads its own
 * copy, so a server that has loaded every route (the API lane does, at start) holds 18 compiled
 * copies of one script: about 1 MB of heap each. The module factories inside are installed once
 * by id whichever copy loads first, so pointing every entry at one copy changes nothing but the
 * memory. This keeps the first file of each identical group, rewrites the references to the others
 * (route entries and their file traces), and deletes them with their maps.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MAP_COMMENT = /\n\/\/# sourceMappingURL=[^\n]*\s*$/;

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * Deduplicates `<serverDir>/chunks/*.js` in place. Returns how many files were removed and the
 * bytes they held.
 */
export function dedupeServerChunks(serverDir) {
  const chunksDir = join(serverDir, 'chunks');
  const byContent = new Map();
  for (const name of readdirSync(chunksDir).filter((n) => n.endsWith('.js')).sort()) {
    const body = readFileSync(join(chunksDir, name), 'utf8').replace(MAP_COMMENT, '');
    const key = createHash('sha256').update(body).digest('hex');
    byContent.set(key, [...(byContent.get(key) ?? []), name]);
  }
  const renames = new Map();
  for (const names of byContent.values()) for (const dup of names.slice(1)) renames.set(dup, names[0]);
  if (renames.size === 0) return { removed: 0, bytes: 0 };

  for (const file of walk(serverDir).filter((f) => f.endsWith('.js') || f.endsWith('.nft.json'))) {
    if (file.startsWith(chunksDir) && renames.has(file.slice(chunksDir.length + 1))) continue;
    const text = readFileSync(file, 'utf8');
    let next = text;
    for (const [dup, kept] of renames) if (next.includes(dup)) next = next.split(dup).join(kept);
    if (next !== text) writeFileSync(file, next);
  }
  let bytes = 0;
  for (const dup of renames.keys()) {
    bytes += statSync(join(chunksDir, dup)).size;
    rmSync(join(chunksDir, dup));
    rmSync(join(chunksDir, `${dup}.map`), { force: true });
  }
  return { removed: renames.size, bytes };
}
