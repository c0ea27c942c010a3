// Lint rules that hold ARCHITECTURE.md (section 1: layers, no cycles, naming): type-checked
// TypeScript, the one-way import direction between layers, and kebab-case file names.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import checkFile from 'eslint-plugin-check-file';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

const root = dirname(fileURLToPath(import.meta.url));

// Only what tsconfig.json includes: the project service rejects a file outside the project.
const TS_FILES = ['**/*.{ts,tsx}'];
const CODE_FILES = ['**/*.{ts,tsx,js,jsx,mjs,cjs}'];

const ioredis = {
  group: ['ioredis', 'ioredis/**'],
  message: 'Redis I/O belongs in lib/asynq and lib/server (ARCHITECTURE.md 1.4).',
};
const frameworks = {
  group: ['next', 'next/**', '@next/**', 'react', 'react/**', 'react-*', 'react-*/**', '@tanstack/react-*', 'server-only'],
  message: 'lib/asynq is plain Node: no Next.js, React or server-only (ARCHITECTURE.md 1).',
};
const layer = (dir, message) => ({ group: [`@/${dir}`, `@/${dir}/**`], message });
const asynq = {
  group: ['@/lib/asynq', '@/lib/asynq/**', '@asynqlens/asynq', '@asynqlens/asynq/**'],
  message: 'Reach the protocol core through lib/server (ARCHITECTURE.md 1).',
};
const server = layer('lib/server', 'lib/server is server glue; this layer must not depend on it (ARCHITECTURE.md 1).');
const query = layer('lib/query', 'lib/query is the client data layer; this layer must not depend on it.');
const upward = ['lib/contract', 'app', 'components'].map((dir) =>
  layer(dir, 'lib/asynq must not import the layers above it (ARCHITECTURE.md 1).'),
);

// The console imports the core as a user of @asynqlens/asynq does (ARCHITECTURE.md 1.7): by its
// package name and the subpaths its package.json exports, never by a file of lib/asynq.
const exported = Object.keys(JSON.parse(readFileSync(join(root, 'packages/asynq/package.json'), 'utf8')).exports)
  .filter((sub) => sub !== '.' && !sub.endsWith('.json'))
  .map((sub) => sub.slice(2).replace(/[.]/g, '\\.'));
const coreFiles = {
  group: ['@/lib/asynq', '@/lib/asynq/**', '**/lib/asynq', '**/lib/asynq/**'],
  message: 'Import the core as @asynqlens/asynq (or an exported subpath), as its users do (ARCHITECTURE.md 1.7).',
};
const coreRelative = {
  regex: '^\\.\\.?/(.*/)?asynq(/|$)',
  message: coreFiles.message,
};
const unexported = {
  regex: `^@asynqlens/asynq/(?!(${exported.join('|')})$)`,
  message: 'Not an entry of @asynqlens/asynq: add it to packages/asynq/package.json `exports` (ARCHITECTURE.md 1.7).',
};

// A later config block *replaces* an earlier block's options for the same rule, so every scope
// below spells out its full list rather than adding to a shared one.
const restrict = (...groups) => ['error', { patterns: groups }];

export default defineConfig([
  globalIgnores([
    '.next/',
    '.next-*/',
    'out/',
    '**/gen/',
    '**/*.gen.ts',
    'tests/go/',
    'next-env.d.ts',
  ]),
  {
    name: 'asynqlens/typescript',
    files: TS_FILES,
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // With verbatimModuleSyntax, `import { type A } from 'x'` still loads 'x' at runtime.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // React ignores what an event handler returns, so `onClick={async () => ...}` is harmless;
      // mutations report their errors through useMutation, not through that promise.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // The no-unsafe-* rules stop `any` from leaking into typed code. In tests, `await res.json()`
    // is `any` by design and every property read feeds an assertion that fails loudly at runtime,
    // so they only add casts. Explicit `any` stays an error.
    name: 'asynqlens/tests',
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The zones and no-cycle follow relative and `@/` imports alike: the alias is resolved by
    // scripts/eslint-alias-resolver.cjs, then the installed node resolver. The
    // no-restricted-imports patterns below name the layer a forbidden alias import breaks.
    name: 'asynqlens/layers',
    files: CODE_FILES,
    plugins: { import: importPlugin },
    settings: {
      // The files whose imports the plugin reads; it reads only .js ones unless told.
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/resolver': {
        [join(root, 'scripts/eslint-alias-resolver.cjs')]: { root, extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
      },
    },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: './lib/asynq',
              from: ['./lib/server', './lib/contract', './lib/query', './app', './components'],
              message: 'lib/asynq must not import the layers above it (ARCHITECTURE.md 1).',
            },
            {
              target: ['./components', './lib/query'],
              from: ['./lib/server', './lib/asynq'],
              message: 'Client code reaches data through lib/query and lib/contract (ARCHITECTURE.md 1).',
            },
            {
              target: './lib/contract',
              from: ['./lib/server', './lib/asynq', './lib/query'],
              message: 'lib/contract is isomorphic schemas with no I/O (ARCHITECTURE.md 1).',
            },
          ],
        },
      ],
      'no-restricted-imports': restrict(ioredis),
      // No import runs in a circle. The rule skips `import type`, so a cycle made only of type
      // imports gets past it.
      'import/no-cycle': 'error',
    },
  },
  { files: ['lib/asynq/**'], rules: { 'no-restricted-imports': restrict(frameworks, server, query, ...upward) } },
  { files: ['components/**', 'lib/query/**'], rules: { 'no-restricted-imports': restrict(ioredis, server, asynq) } },
  { files: ['lib/contract/**'], rules: { 'no-restricted-imports': restrict(ioredis, server, asynq, query) } },
  { files: ['app/**', 'bin/**', 'proxy.ts', 'instrumentation.ts'], rules: { 'no-restricted-imports': restrict(ioredis, coreFiles, coreRelative, unexported) } },
  { files: ['lib/server/**'], rules: { 'no-restricted-imports': restrict(coreFiles, coreRelative, unexported) } },
  {
    files: ['tests/**', 'scripts/**', 'bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Lua scripts are not JavaScript; this processor hands ESLint an empty file so that the
    // check-file rules below can still judge their names.
    files: ['lib/**/*.lua'],
    processor: 'check-file/eslint-processor-check-file',
    plugins: { 'check-file': checkFile },
  },
  {
    name: 'asynqlens/naming',
    files: ['{app,lib,components,tests,scripts}/**/*.{ts,tsx,js,jsx,mjs,cjs,lua}'],
    plugins: { 'check-file': checkFile },
    rules: {
      // ignoreMiddleExtensions: `keys.test.ts` and `playwright.config.ts` are named by their stem.
      'check-file/filename-naming-convention': ['error', { '**/*': 'KEBAB_CASE' }, { ignoreMiddleExtensions: true }],
      // App Router folders also allow `[param]`, `[...slug]`, `(group)`, `@slot` and `_private`.
      'check-file/folder-naming-convention': [
        'error',
        { '{lib,components,tests,scripts}/**/': 'KEBAB_CASE', 'app/**/': 'NEXT_JS_APP_ROUTER_CASE' },
      ],
    },
  },
]);
