/**
 * The JSON schema of `.sanomarc.json` that the extension contributes (`jsonValidation`), made from
 * the rule registry: every rule id with its summary, for completion and hover in the editor.
 * `node --import tsx scripts/sanomarc-schema.ts` writes `schemas/sanomarc.schema.json`; a test
 * checks the file on disk is what this makes.
 *
 * It describes and completes; it does not judge what the language server judges (an unknown rule
 * id, with its did-you-mean; a level that is none), so that those mistakes are said once in the
 * editor: levels are offered as `examples`, unknown ids are let through to the server. It does
 * judge each value's type (an object, an array, a string), which the server says too: a value of
 * the wrong type is said twice in VS Code (docs/settings.md, "In VS Code").
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { RULES } from "../server/src/core/rules/index.ts";
import { LEVELS } from "../server/src/core/sanomarc.ts";
import { severityWords } from "./rule-docs.ts";

const LEVEL_WORDS: Record<string, string> = {
  off: "not checked",
  error: "an error (sanoma-check exits 1)",
  warning: "a warning",
  warn: "a warning (the same as `warning`)",
  info: "information",
  hint: "a hint (shown faded, not counted in the Problems panel)",
};

export function sanomarcSchema(): object {
  const levels = [...LEVELS, "warn"];
  const level = {
    type: "string",
    examples: levels,
    markdownDescription: levels.map((l) => `\`${l}\`: ${LEVEL_WORDS[l]}`).join("; "),
  };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "Sanoma shared settings",
    description: "The settings a team commits: the nearest .sanomarc.json at or above a company root holds for it, read alike by the language server, sanoma-check and the lint plugin; editor settings and command-line flags are laid over it.",
    type: "object",
    properties: {
      $schema: { type: "string" },
      rules: {
        type: "object",
        markdownDescription: "A level per rule id: `off`, `error`, `warning` (or `warn`), `info` or `hint`. A person's `sanoma.rules` setting and `sanoma-check --rule` win over these.",
        properties: Object.fromEntries(RULES.map((r) => [r.id, { ...level, markdownDescription: `${r.doc.summary}\n\nDefault: ${severityWords(r).replace(/^(\w+)/, "`$1`")}.` }])),
        additionalProperties: { type: "string" },
        defaultSnippets: [{ label: "a rule's level", body: { "${1:rule}": "${2:warning}" } }],
      },
      exclude: {
        type: "array",
        markdownDescription: "Folders to leave out, besides `node_modules` and those whose name starts with `.`: a name (`generated`) anywhere, or a path from this file's folder (`apps/legacy`). A person's `sanoma.exclude` setting and `sanoma-check --exclude` add to these.",
        items: { type: "string" },
      },
    },
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  writeFileSync(join(import.meta.dirname, "..", "schemas", "sanomarc.schema.json"), JSON.stringify(sanomarcSchema(), null, 2) + "\n");
}
