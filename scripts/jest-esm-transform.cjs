// A jest transform for the one ES-module-only package the sources require, the CEL evaluator
// @marcbachmann/cel-js (src/schema/cel.ts): jest's CommonJS module system cannot require an ES
// module on Node.js 20, so esbuild rewrites each of its files to CommonJS as jest loads it. The
// published package does not need this: `npm run build` bundles the evaluator into
// lib/src/schema/vendor/cel-js.js (scripts/bundle-cel.mjs).
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, { loader: 'js', format: 'cjs', target: 'node20', sourcemap: 'external', sourcefile: filename });
    return { code, map };
  },
};
