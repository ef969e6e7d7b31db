/**
 * The rules that judge one import from paths alone (SPEC A9): the lint plugin's rules. Kept apart
 * from the full registry so that the plugin's bundle does not pull in the TypeScript parser.
 */
import type { ImportRule } from "./rule.ts";
import { rule as noCrossAppImport } from "./no-cross-app-import.ts";
import { rule as noAppImportFromRoot } from "./no-app-import-from-root.ts";
import { rule as noImportOutsideCompany } from "./no-import-outside-company.ts";
import { rule as dataFileImports } from "./data-file-imports.ts";
import { rule as collectionImport } from "./collection-import.ts";

export const IMPORT_RULES: readonly ImportRule[] = [noCrossAppImport, noAppImportFromRoot, noImportOutsideCompany, dataFileImports, collectionImport];
