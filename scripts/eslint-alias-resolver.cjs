// The aliases of tsconfig.json (`@/*` → `./*` from the repository root, `@asynqlens/asynq` →
// its source in lib/asynq) for eslint-plugin-import, which otherwise cannot follow them: the
// layer zones and import/no-cycle then see alias imports as they see relative ones. Every specifier, rewritten or not, is then
// resolved by the installed node resolver with the options given in eslint.config.mjs.
const path = require('node:path');
const node = require('eslint-import-resolver-node');

exports.interfaceVersion = 2;

const PACKAGE = '@asynqlens/asynq';

function rewrite(source, root) {
  if (source.startsWith('@/')) return path.join(root, source.slice(2));
  if (source === PACKAGE) return path.join(root, 'lib/asynq/index.ts');
  if (source.startsWith(`${PACKAGE}/`)) return path.join(root, 'lib/asynq', source.slice(PACKAGE.length + 1));
  return source;
}

exports.resolve = (source, file, config) => {
  const { root, ...options } = config;
  return node.resolve(rewrite(source, root), file, options);
};
