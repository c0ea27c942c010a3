// Builds @asynqlens/asynq from lib/asynq (where the source stays, as the console's core layer):
// one ESM bundle per entry of package.json `exports`, sharing chunks so that every entry sees
// the same classes, plus declaration files that resolve under `moduleResolution: nodenext` and
// `bundler` alike. `exports` is the one list of entries: the build, the console's lint rule
// and the packed-tarball test all read it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../..');
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const dist = join(here, 'dist');

/** `./dist/types/inspector/index.d.ts` → `lib/asynq/inspector/index.ts`: where each entry's source is. */
function entries() {
  return Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object')
    .map(([subpath, { types, default: js }]) => ({
      subpath,
      out: js.replace(/^\.\/dist\//, '').replace(/\.js$/, ''),
      source: join(repo, 'lib/asynq', types.replace(/^\.\/dist\/types\//, '').replace(/\.d\.ts$/, '.ts')),
      files: [types, js].map((p) => join(here, p)),
    }));
}

/** Every .d.ts under `dir`. */
function declarations(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, f))
    .filter((f) => f.endsWith('.d.ts') && statSync(f).isFile());
}

/**
 * The source imports its own files without extensions (bundler style); Node's ESM resolution,
 * which `nodenext` type-checking follows, needs the full file name. Rewrites every relative
 * specifier of the emitted declarations (`from './x'` and `import('./x')`) to `./x.js` or
 * `./x/index.js`, and fails on one that names no emitted file.
 */
function addExtensions(file) {
  const text = readFileSync(file, 'utf8');
  const fixed = text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}(?:\/[^'"]*)?)\2/g, (_m, lead, q, spec) => {
    const base = join(dirname(file), spec);
    const target = existsSync(`${base}.d.ts`) ? `${spec}.js` : existsSync(join(base, 'index.d.ts')) ? `${spec}/index.js` : null;
    if (!target) throw new Error(`${relative(here, file)}: ${spec} names no declaration file`);
    return `${lead}${q}${target}${q}`;
  });
  if (fixed !== text) writeFileSync(file, fixed);
}

rmSync(dist, { recursive: true, force: true });
const list = entries();
await build({
  entryPoints: Object.fromEntries(list.map((e) => [e.out, e.source])),
  outdir: dist,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // ioredis, @bufbuild/protobuf and node: built-ins are the user's installed dependencies.
  packages: 'external',
  logLevel: 'warning',
});
execFileSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
for (const file of declarations(join(dist, 'types'))) addExtensions(file);
const missing = list.flatMap((e) => e.files).filter((f) => !existsSync(f));
if (missing.length > 0) throw new Error(`exports name files the build did not write: ${missing.map((f) => relative(here, f)).join(', ')}`);
console.log(`@asynqlens/asynq: ${list.length} entries built into ${relative(repo, dist)}`);
