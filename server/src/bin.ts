/**
 * The one bundle of the `@sanoma-ai/language-server` package (`dist/sanoma.js`): its two commands,
 * each loaded only when run (esbuild keeps a `require` inside a function lazy), so that the
 * TypeScript parser they share is shipped once. `bin/sanoma-check.js` and
 * `bin/sanoma-language-server.js` call them.
 */

/** `sanoma-check`: runs the check with this process's arguments, streams and disk. */
export function check(): void {
  require("./check/main.ts");
}

/** `sanoma-language-server`: the server over stdio or node IPC, as its arguments say. */
export function languageServer(): void {
  require("./lsp/main.ts");
}
