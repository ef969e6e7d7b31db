/**
 * `@sanoma-ai/lint-plugin`'s entry: an ES module whose default export is the plugin object, the
 * shape `jsPlugins` (oxlint) and `import` in an `eslint.config.js` expect. Its `"module.exports"`
 * export is the same object, which is what Node (≥ 20.19) gives a `require()` of this file, so an
 * `eslint.config.cjs` gets the plugin itself too. The plugin is built in `plugin.ts`.
 *
 * An ES module rather than CommonJS: oxlint loads a plugin with `import()`, and for a CommonJS file
 * Node first lexes the whole file for its export names (loading took 33 ms of CPU as CommonJS, 12
 * as an ES module: docs/decisions.md).
 */
import { plugin } from "./plugin.ts";

export default plugin;
export { plugin as "module.exports" };
