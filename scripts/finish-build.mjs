/**
 * Completes `next build`'s standalone output into a folder that runs with `node` alone:
 * Next leaves the browser assets (.next/static) and the launcher (bin/) outside it. Prints the size
 * so a growing bundle is noticed.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dedupeServerChunks } from './support/dedupe-server-chunks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = process.env.ASYNQLENS_DIST_DIR || '.next';
const out = join(root, distDir, 'standalone');
if (!existsSync(join(out, 'server.js'))) {
  console.error(`finish-build: ${distDir}/standalone/server.js is missing (is output: 'standalone' set in next.config.mjs?)`);
  process.exit(1);
}
cpSync(join(root, distDir, 'static'), join(out, distDir, 'static'), { recursive: true });
if (existsSync(join(root, 'public'))) cpSync(join(root, 'public'), join(out, 'public'), { recursive: true });
mkdirSync(join(out, 'bin'), { recursive: true });
cpSync(join(root, 'bin'), join(out, 'bin'), { recursive: true });
const deduped = dedupeServerChunks(join(out, distDir, 'server'));
if (deduped.removed > 0) console.log(`standalone build: ${deduped.removed} duplicate server chunks removed (${(deduped.bytes / 1024 / 1024).toFixed(1)} MB)`);

function size(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, name) => sum + size(join(path, name)), 0);
}
const mb = (size(out) / 1024 / 1024).toFixed(1);
console.log(`standalone build: ${distDir}/standalone (${mb} MB) — run it with \`${distDir}/standalone/bin/asynqlens.mjs --help\``);
