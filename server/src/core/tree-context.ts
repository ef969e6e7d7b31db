/**
 * What the readers of one file's syntax tree share while they read it (`facts-tree.ts` makes it;
 * `facts-specs.ts` and `facts-calls.ts` read through it).
 */
import type ts from "./typescript.ts";
import type { FileFacts, ImportedName } from "./fact-types.ts";
import type { ExportedByName, TopConst } from "./facts-workflows.ts";
import type { Range } from "./types.ts";


export interface TreeContext {
  sf: ts.SourceFile;
  text: string;
  /** A node's range, from its first token (no leading trivia). */
  r(node: ts.Node): Range;
  /** The facts being read. */
  facts: FileFacts;
  /** The string literals read as import sites: no operation reference. */
  specifierNodes: Set<ts.Node>;
  /** A property or export name's text, when it has one. */
  nameText(n: ts.PropertyName | ts.ModuleExportName): string | undefined;
  /** The file's top-level consts by name (built on first use). */
  constsByName(): Map<string, TopConst>;
  addImport(spec: ts.StringLiteralLike, names: ImportedName[]): void;
  /** `export { a, b as c }` (no `from`) of a top-level const that is not exported itself: its const and the exported name. */
  exportedByName: ExportedByName;
  /** The spec a `defineResource(…)` call defines (its index in `facts.specs`), read once; undefined for any other call. */
  specOfCall(call: ts.CallExpression): number | undefined;
}
