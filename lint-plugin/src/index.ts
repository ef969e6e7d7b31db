/**
 * `@sanoma-ai/lint-plugin`'s entry: the plugin object as the module itself (`module.exports`), the
 * shape both `jsPlugins` (oxlint) and `require`/`import` in an `eslint.config.js` expect. The
 * plugin is built in `plugin.ts`.
 */
import { plugin } from "./plugin.ts";

export = plugin;
