/**
 * The little of ESTree (and of the hosts' rule API) that the plugin reads, typed loosely on
 * purpose: oxlint's and typescript-eslint's trees differ in details (`TSImportType.source` vs the
 * older `argument`), so every field the plugin relies on is optional and checked before use.
 */

/** Anything with a place in the file's text: a node, or a range the text scanner found. */
export interface Ranged {
  /** `[start, end)` in UTF-16 code units of the file's text: both hosts give it. */
  range: [number, number];
}

export interface Node extends Ranged {
  type: string;
  parent?: Node | null;
  [key: string]: unknown;
}

export interface Fixer {
  replaceText(node: Ranged, text: string): unknown;
}

export interface Descriptor {
  node: Ranged;
  message: string;
  fix?: (fixer: Fixer) => unknown;
}

/** What both hosts give a rule: ESLint's `context`, and oxlint's (fields valid once a file is set). */
export interface RuleContext {
  filename: string;
  physicalFilename?: string;
  cwd?: string;
  settings?: Record<string, unknown>;
  sourceCode: { text: string };
  report(descriptor: Descriptor): void;
}

export type Visitor = Record<string, (node: Node) => void>;
