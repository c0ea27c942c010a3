/**
 * Packs the console for npm: `npm run build && npm run pack:console` writes
 * dist/asynqlens-<version>.tgz, which installs with `npm install` and runs with
 * `npx asynqlens --redis-url redis://…`.
 *
 * The package is the standalone build (what finish-build.mjs completes) with a package.json of
 * its own: no scripts, no dev dependencies, and the server's node_modules, the files Next traced
 * as needed at run time (about 20 MB of the 700 MB a full `next` install takes), shipped inside
 * the tarball as bundled dependencies, so an install downloads nothing more.
 *
 * npm never packs a symlink or a nested node_modules folder outside the bundled ones, and the
 * standalone build has one of each: Next reaches each of its server-external packages (ioredis)
 * through `<distDir>/node_modules/<name>-<hash>`, a symlink to `node_modules/<name>`. Here each
 * becomes a bundled package of that name whose only file re-exports the real one, so Node's
 * resolution from the server's chunks finds the same module as before; any other symlink becomes
 * a copy. Last, the tarball's file list is compared with the folder's: a file npm left out
 * stops the pack with its name.
 *
 *   node scripts/pack-console.mjs [--out DIR]   (ASYNQLENS_DIST_DIR picks another build, as for finish-build)
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const outDir = resolve(values.out ?? join(root, 'dist'));
const distDir = process.env.ASYNQLENS_DIST_DIR || '.next';
const standalone = join(root, distDir, 'standalone');

function fail(message) {
  console.error(`pack-console: ${message}`);
  process.exit(1);
}

if (!existsSync(join(standalone, 'server.js')) || !existsSync(join(standalone, 'bin', 'asynqlens.mjs'))) {
  fail(`${distDir}/standalone is missing or incomplete: run \`npm run build\` first`);
}

/** Every path under `dir` (relative, `/`-separated) that is not a directory. */
function walk(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? walk(path, base) : [relative(base, path).split(sep).join('/')];
  });
}

/** Package folders directly in a node_modules folder: `name` and `@scope/name`. */
function packagesIn(modules) {
  if (!existsSync(modules)) return [];
  return readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name]));
}

const stage = mkdtempSync(join(tmpdir(), 'asynqlens-pack-'));
try {
  const pkgDir = join(stage, 'package');
  cpSync(standalone, pkgDir, { recursive: true, verbatimSymlinks: true });
  // The checkout's package.json (scripts, dev dependencies), replaced below.
  rmSync(join(pkgDir, 'package.json'));

  // Next's aliases for server-external packages → bundled re-exporting packages of the same name.
  const aliasDir = join(pkgDir, distDir, 'node_modules');
  for (const alias of packagesIn(aliasDir)) {
    const link = join(aliasDir, alias);
    if (!lstatSync(link).isSymbolicLink()) fail(`${distDir}/node_modules/${alias} is not a symlink: a layout this script does not know`);
    const target = relative(join(pkgDir, 'node_modules'), resolve(dirname(link), readlinkSync(link))).split(sep).join('/');
    if (target.startsWith('..') || !existsSync(join(pkgDir, 'node_modules', target, 'package.json'))) {
      fail(`${distDir}/node_modules/${alias} points outside the bundled node_modules (${readlinkSync(link)})`);
    }
    const shim = join(pkgDir, 'node_modules', alias);
    mkdirSync(shim, { recursive: true });
    writeFileSync(join(shim, 'package.json'), `${JSON.stringify({ name: alias, version: '0.0.0', private: true, type: 'commonjs', main: 'index.js' }, null, 2)}\n`);
    writeFileSync(join(shim, 'index.js'), `// Next's alias for ${target} (see scripts/pack-console.mjs in asynqlens).\nmodule.exports = require('${target}');\n`);
  }
  rmSync(aliasDir, { recursive: true, force: true });

  // Any other symlink (a workspace package Next traced, say) becomes a copy of what it points
  // to, when that is inside the build; one pointing outside it could not work anywhere else.
  for (const path of walk(pkgDir).filter((p) => lstatSync(join(pkgDir, p)).isSymbolicLink())) {
    const link = join(pkgDir, path);
    const target = resolve(dirname(link), readlinkSync(link));
    if (relative(pkgDir, target).startsWith('..') || !existsSync(target)) fail(`${path} is a symlink to ${target}, outside the build`);
    rmSync(link);
    cpSync(target, link, { recursive: true, dereference: true });
  }

  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const bundled = packagesIn(join(pkgDir, 'node_modules')).sort();
  const dependencies = Object.fromEntries(bundled.map((name) => [name, JSON.parse(readFileSync(join(pkgDir, 'node_modules', name, 'package.json'), 'utf8')).version]));
  const pkg = {
    name: 'asynqlens',
    version: rootPkg.version,
    description: rootPkg.description,
    license: rootPkg.license,
    keywords: ['asynq', 'redis', 'task-queue', 'dashboard', 'console'],
    type: rootPkg.type,
    bin: { asynqlens: 'bin/asynqlens.mjs' },
    engines: rootPkg.engines,
    // Everything the build holds: Next put there only what the server needs.
    files: readdirSync(pkgDir).filter((name) => name !== 'node_modules').sort(),
    dependencies,
    bundleDependencies: bundled,
  };
  writeFileSync(join(pkgDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  cpSync(join(root, 'README.md'), join(pkgDir, 'README.md'));

  mkdirSync(outDir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const [packed] = JSON.parse(
    execFileSync(npm, ['pack', '--json', '--pack-destination', outDir, '--ignore-scripts', '--loglevel', 'error'], { cwd: pkgDir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
  );

  const inTarball = new Set(packed.files.map((f) => f.path));
  const missing = walk(pkgDir).filter((path) => !inTarball.has(path));
  if (missing.length > 0) {
    rmSync(join(outDir, packed.filename), { force: true });
    fail(`npm left ${missing.length} file(s) of the build out of the tarball, so the server would miss them:\n  ${missing.slice(0, 20).join('\n  ')}`);
  }
  const mb = (n) => (n / 1024 / 1024).toFixed(1);
  console.log(`packed ${join(outDir, packed.filename)}: ${mb(packed.size)} MB (${mb(packed.unpackedSize)} MB unpacked, ${packed.entryCount} files)`);
  console.log(`  install: npm install ${join(outDir, packed.filename)} && npx asynqlens --redis-url redis://127.0.0.1:6379`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
