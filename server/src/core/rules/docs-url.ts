/**
 * Where each rule's documentation page lives. A module of its own, importing nothing, so that the
 * lint plugin's bundle can name the pages without pulling in the rule registry (and with it the
 * TypeScript parser).
 */

export const DOCS_BASE = "https://github.com/sanoma-ai/sanoma-tooling/blob/main/docs/rules/";

export function ruleDocsUrl(id: string): string {
  return `${DOCS_BASE}${id}.md`;
}
