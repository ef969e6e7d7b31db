/**
 * Every rule id, written once: the order of SPEC B1, which is the registry's (`index.ts`, a test
 * holds them together) and the order of the TypeScript plugin's codes. Other lists of rule ids
 * derive from these: the registry's `RULE_IDS`, the lint plugin's rules, the `sanoma.rules`
 * setting in package.json (made by `scripts/rules-setting.ts`), the tests. A module with no
 * imports, so that any bundle can take the ids without the rules.
 */
export const RULE_IDS = [
  "resource-type", "resource-fields", "resource-type-spec", "one-wakeup", "one-sandbox",
  "lockfile", "secret-bindings",
  "collection-op", "collection-file", "collection-import", "collection-name", "collection-key", "collection-scope",
  "no-cross-app-import", "no-app-import-from-root", "no-import-outside-company", "data-file-imports",
  "syntax-error",
] as const;

export type RuleId = (typeof RULE_IDS)[number];

/** The rules that judge one import from paths alone (SPEC A9): the lint plugin's, in its order (`imports.ts`). */
export const IMPORT_RULE_IDS = [
  "no-cross-app-import", "no-app-import-from-root", "no-import-outside-company", "data-file-imports", "collection-import",
] as const satisfies readonly RuleId[];

export type ImportRuleId = (typeof IMPORT_RULE_IDS)[number];
