// The `@/` alias of tsconfig.json (`@/*` → `./*` from the repository root) for
// eslint-plugin-import, which otherwise cannot follow it: the layer zones and import/no-cycle
// then see alias imports as they see relative ones. Every specifier, rewritten or not, is then
// resolved by the installed node resolver with the options given in eslint.config.mjs.
const path = require('node:path');
const node = require('eslint-import-resolver-node');

exports.interfaceVersion = 2;

exports.resolve = (source, file, config) => {
  const { root, ...options } = config;
  return node.resolve(source.startsWith('@/') ? path.join(root, source.slice(2)) : source, file, options);
};
