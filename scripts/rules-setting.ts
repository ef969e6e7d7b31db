/**
 * The `sanoma.rules` setting the extension contributes in package.json (`contributes.configuration`):
 * a level per rule id, made from the registry's `RULE_IDS`, since package.json must hold it as
 * literal JSON. `node --import tsx scripts/rules-setting.ts` writes it into package.json; a test
 * (`test/rules/docs.test.ts`) fails while package.json differs from what this makes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RULE_IDS } from "../server/src/core/rules/ids.ts";

export const PACKAGE_JSON = join(import.meta.dirname, "..", "package.json");

// (`warn` as `.sanomarc.json`, `--rule` and the TypeScript plugin read it: a value copied from one works in the others.)
const LEVELS = ["off", "error", "warning", "warn", "info", "hint"];
const LEVEL_WORDS = ["Not checked", "An error", "A warning", "A warning (the same as \"warning\")", "Information", "A hint (shown faded, not in the Problems panel count)"];

export function rulesSetting(): object {
  const level = { type: "string", enum: LEVELS, enumDescriptions: LEVEL_WORDS };
  return {
    type: "object",
    scope: "resource",
    default: {},
    markdownDescription: "Severity per rule id, overriding the default (every rule is an error, except a `secret(\"NAME\")` with no binding and an orphan lockfile binding, which are warnings). `\"off\"` turns a rule off. Example: `{ \"collection-scope\": \"warning\" }`.",
    properties: Object.fromEntries(RULE_IDS.map((id) => [id, { ...level, markdownDescription: `Severity of \`${id}\`.` }])),
    additionalProperties: level,
  };
}

/** package.json's text with the setting made anew (the rest as it is). */
export function packageJsonWithRulesSetting(text: string): string {
  const manifest = JSON.parse(text);
  manifest.contributes.configuration.properties["sanoma.rules"] = rulesSetting();
  return JSON.stringify(manifest, null, 2) + "\n";
}

if (process.argv[1]?.endsWith("rules-setting.ts")) {
  writeFileSync(PACKAGE_JSON, packageJsonWithRulesSetting(readFileSync(PACKAGE_JSON, "utf8")));
}
