/** The rule registry: every rule of SPEC B1, in the order their docs list them. */
import type { Rule } from "./rule.ts";
import { rule as resourceType } from "./resource-type.ts";
import { rule as resourceFields } from "./resource-fields.ts";
import { rule as resourceTypeSpec } from "./resource-type-spec.ts";
import { rule as oneWakeup } from "./one-wakeup.ts";
import { rule as oneSandbox } from "./one-sandbox.ts";
import { rule as lockfile } from "./lockfile.ts";
import { rule as secretBindings } from "./secret-bindings.ts";
import { rule as collectionOp } from "./collection-op.ts";
import { rule as collectionFile } from "./collection-file.ts";
import { rule as collectionImport } from "./collection-import.ts";
import { rule as collectionName } from "./collection-name.ts";
import { rule as collectionKey } from "./collection-key.ts";
import { rule as collectionScope } from "./collection-scope.ts";
import { rule as noCrossAppImport } from "./no-cross-app-import.ts";
import { rule as noAppImportFromRoot } from "./no-app-import-from-root.ts";
import { rule as noImportOutsideCompany } from "./no-import-outside-company.ts";
import { rule as dataFileImports } from "./data-file-imports.ts";
import { rule as syntaxError } from "./syntax-error.ts";

export const RULES: readonly Rule[] = [
  resourceType, resourceFields, resourceTypeSpec, oneWakeup, oneSandbox, lockfile, secretBindings,
  collectionOp, collectionFile, collectionImport, collectionName, collectionKey, collectionScope,
  noCrossAppImport, noAppImportFromRoot, noImportOutsideCompany, dataFileImports, syntaxError,
];

export { IMPORT_RULES } from "./imports.ts";

export { RULE_IDS, IMPORT_RULE_IDS, type RuleId } from "./ids.ts";

export { DOCS_BASE, ruleDocsUrl } from "./docs-url.ts";
