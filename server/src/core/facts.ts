/**
 * One file's text → its facts: imports, exports, resource declarations, resource type specs,
 * collections, operation references, secret calls, the config's secret bindings, workflows.
 * The main user of the TypeScript parser (`cursor.ts` reads a cursor's place with it, `lockfile-read.ts`
 * places lockfile problems with its JSON reader). The syntax tree is dropped as soon as
 * the facts are read: the index keeps facts, never trees (a 10,000-file company stays small).
 * Broken code is not an error: a file with syntax errors yields what can still be read plus the
 * count of errors.
 */
export * from "./fact-types.ts";
export { readFacts, syntaxAndWorkflows, syntaxVerdict, TOO_DEEP } from "./facts-tree.ts";
export { knowSyntax, readFactsLightly, readTextOnly, readWorkflowSourceJudged, textAwaitingSyntax, workflowsRead, type LightReading } from "./light-facts.ts";
export { isModuleName, scriptKind } from "./ts-nodes.ts";
export { isFrameworkModule } from "./company.ts";
