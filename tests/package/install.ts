/**
 * Global setup of the `package` project: builds @asynqlens/asynq, packs it with `npm pack`
 * and installs the tarball (with its dependencies from the registry) into an empty project,
 * as a user would. Its packed file list goes to the tarball test.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { consumerDir, fromSource } from './package-project';

const root = join(import.meta.dirname, '../..');
const packageDir = join(root, 'packages/asynq');

interface PackResult {
  filename: string;
  files: { path: string }[];
}

const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

export function setup(project: TestProject): void {
  project.provide('packageDir', consumerDir(root));
  project.provide('packedFiles', []);
  if (fromSource()) return;
  const dir = consumerDir(root);
  // Reuse the last install (ASYNQLENS_PACKAGE=reuse) while working on the suite itself.
  if (process.env.ASYNQLENS_PACKAGE === 'reuse' && existsSync(join(dir, 'packed-files.json'))) {
    project.provide('packedFiles', JSON.parse(readFileSync(join(dir, 'packed-files.json'), 'utf8')) as string[]);
    return;
  }
  const started = Date.now();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run(process.execPath, [join(packageDir, 'build.mjs')], root);
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], packageDir)) as PackResult[];
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'asynq-consumer', private: true, type: 'module' }, null, 2)}\n`);
  // @types/node at the version the repository type-checks with: the consumer type-check needs it.
  const typesNode = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@types/node']!;
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${packed!.filename}`, `@types/node@${typesNode}`], dir);
  const files = packed!.files.map((f) => f.path);
  writeFileSync(join(dir, 'packed-files.json'), JSON.stringify(files));
  project.provide('packedFiles', files);
  console.log(`[package] ${packed!.filename}: ${packed!.files.length} files, installed into ${dir} in ${Date.now() - started} ms`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    packageDir: string;
    packedFiles: string[];
  }
}
