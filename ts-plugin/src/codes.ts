/**
 * Each rule's diagnostic code. tsserver's diagnostics carry a number, not a rule id, so each rule
 * has one of its own, in the order of SPEC B1, from 72601 (72 66: "sa" on a phone's keys), far
 * from TypeScript's own codes. The README lists them. (A module of its own: the plugin's entry
 * answers `getSupportedCodeFixes` with these without loading the core.)
 */
import type { RuleId } from "../../server/src/core/rules/ids.ts";

export const RULE_CODES: Readonly<Record<RuleId, number>> = {
  "resource-type": 72601, "resource-fields": 72602, "resource-type-spec": 72603, "one-wakeup": 72604, "one-sandbox": 72605,
  "lockfile": 72606, "secret-bindings": 72607, "collection-op": 72608, "collection-file": 72609, "collection-import": 72610,
  "collection-name": 72611, "collection-key": 72612, "collection-scope": 72613, "no-cross-app-import": 72614,
  "no-app-import-from-root": 72615, "no-import-outside-company": 72616, "data-file-imports": 72617, "syntax-error": 72618,
};

export const OUR_CODES: ReadonlySet<number> = new Set(Object.values(RULE_CODES));
