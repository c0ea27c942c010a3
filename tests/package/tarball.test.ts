/**
 * The tarball `npm pack` makes of @asynqlens/asynq, installed into an empty project
 * (tests/package/install.ts): it holds every file its entries and their imports name, depends
 * on ioredis and @bufbuild/protobuf only, loads in plain Node, and type-checks in a user's
 * project under `moduleResolution: nodenext` and `bundler`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { fromSource, PACKAGE_NAME } from './package-project';

const root = join(import.meta.dirname, '../..');
const dir = inject('packageDir');
const packed = new Set(inject('packedFiles'));
const installed = join(dir, 'node_modules', PACKAGE_NAME);

interface Manifest {
  type: string;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
}

const manifest = (): Manifest => JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
const entries = () => Object.entries(manifest().exports).filter((e): e is [string, { types: string; default: string }] => typeof e[1] === 'object');
const code = () => [...packed].filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'));
const SPECIFIER = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

describe.skipIf(fromSource())('the packed @asynqlens/asynq', () => {
  beforeAll(() => copyFileSync(join(import.meta.dirname, 'consumer.ts.txt'), join(dir, 'consumer.ts')));

  it('holds every file its exports name', () => {
    const named = entries().flatMap(([, t]) => [t.types, t.default]).map((p) => normalize(p));
    expect(named.filter((p) => !packed.has(p))).toEqual([]);
    expect(named.length).toBeGreaterThan(10);
  });

  it('holds every file its modules and declarations import', () => {
    const missing: string[] = [];
    let relative = 0;
    for (const file of code()) {
      for (const [, spec] of readFileSync(join(installed, file), 'utf8').matchAll(SPECIFIER)) {
        if (!spec!.startsWith('.')) continue;
        relative++;
        const target = normalize(join(dirname(file), spec!));
        const wanted = file.endsWith('.d.ts') ? target.replace(/\.js$/, '.d.ts') : target;
        if (!packed.has(wanted)) missing.push(`${file} → ${spec}`);
      }
    }
    expect(missing).toEqual([]);
    expect(relative).toBeGreaterThan(50);
  });

  it('is ESM for Node ≥ 20 and imports nothing but ioredis, @bufbuild/protobuf and Node built-ins', () => {
    const m = manifest();
    expect([m.type, m.engines.node, Object.keys(m.dependencies).sort(), m.peerDependencies]).toEqual(['module', '>=20', ['@bufbuild/protobuf', 'ioredis'], undefined]);
    const bare = new Set<string>();
    for (const file of code().filter((f) => f.endsWith('.js'))) {
      for (const [, spec] of readFileSync(join(installed, file), 'utf8').matchAll(SPECIFIER)) if (!spec!.startsWith('.')) bare.add(spec!);
    }
    expect([...bare].filter((s) => !/^(node:|ioredis$|@bufbuild\/protobuf(\/|$))/.test(s))).toEqual([]);
  });

  it('loads every entry in plain Node from the user\'s project', () => {
    const script = `for (const s of ${JSON.stringify(entries().map(([sub]) => sub.replace(/^\./, PACKAGE_NAME)))}) console.log(s, Object.keys(await import(s)).length);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    const counts: Record<string, number> = Object.fromEntries(out.trim().split('\n').map((line) => [line.split(' ')[0], Number(line.split(' ')[1])]));
    expect(Object.keys(counts)).toHaveLength(entries().length);
    // redis-client is a type-only entry: it loads, with nothing in it at run time.
    expect(Object.entries(counts).filter(([s, n]) => !(n > 0) && !s.endsWith('/redis-client'))).toEqual([]);
    expect(counts[PACKAGE_NAME]).toBeGreaterThan(40);
  });

  it.concurrent.each(['nodenext', 'bundler'])('type-checks a user\'s file under moduleResolution %s', async (resolution) => {
    const config = `tsconfig.${resolution}.json`;
    writeFileSync(join(dir, config), JSON.stringify({
      compilerOptions: {
        module: resolution === 'nodenext' ? 'nodenext' : 'esnext',
        moduleResolution: resolution,
        target: 'ES2022',
        strict: true,
        noEmit: true,
        // The package's own declarations are checked too, not only their use.
        skipLibCheck: false,
        types: ['node'],
      },
      files: ['consumer.ts'],
    }));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const output = await promisify(execFile)(process.execPath, [tsc, '-p', config], { cwd: dir, encoding: 'utf8' }).then(
      ({ stdout }) => stdout,
      (err: Error & { stdout?: string }) => err.stdout || err.message,
    );
    expect(output).toBe('');
  });
});
