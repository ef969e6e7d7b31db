/**
 * What the core's `import ts from "typescript"` becomes in the plugin's bundle (an esbuild alias in
 * `scripts/build.mjs`): the `typescript` instance tsserver passes to the plugin's factory, never a
 * copy of the compiler of our own. The core then parses with the very compiler the editor runs
 * (its syntax kinds are that compiler's), and the bundle stays small: see docs/decisions.md
 * ("The TypeScript plugin uses tsserver's own compiler").
 *
 * The object below delegates to that instance through its prototype, set by the factory before
 * any core code runs (the core reads `ts` only inside its functions, never at load).
 */
import type * as TS from "typescript";

const host = {} as typeof TS;

/** Makes `host` the given compiler (the factory's `typescript`). */
export function useHostTypescript(ts: typeof TS): void {
  if (Object.getPrototypeOf(host) !== ts) Object.setPrototypeOf(host, ts);
}

/** Whether a compiler was given (a core function run before the factory would find nothing). */
export function hasHostTypescript(): boolean {
  return Object.getPrototypeOf(host) !== Object.prototype;
}

export default host;
