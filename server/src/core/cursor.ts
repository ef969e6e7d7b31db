/**
 * What an editor's cursor is in, read from the syntax tree of the document's text as it is now
 * (half typed, with unclosed brackets and literals: the parser recovers, and what it recovers is
 * what the file's facts hold too): a comment, a string literal (and whether it is a module
 * specifier), or the place of a key of an object literal. Completion asks this once per request;
 * the tree is dropped at once, like the facts' (this and `facts.ts` parse code; `lockfile-read.ts` parses
 * JSON only to place its problems).
 */
import ts from "./typescript.ts";
import { isModuleName, scriptKind } from "./facts.ts";
import { isLineBreak } from "./scan-tokens.ts";

export interface StringAtCursor {
  /** The offsets of its content: just past the opening quote, and its closing quote (the end of the text read for an unterminated one). */
  start: number;
  end: number;
  terminated: boolean;
  /** A module specifier (`from "…"`, `import("…")`, `require("…")`, `import x = require("…")`, `import("…")` types). */
  module: boolean;
  /** A template with substitutions (its text parts): no whole value. */
  template: boolean;
}

export type CursorContext =
  | { kind: "comment" }
  | { kind: "string"; string: StringAtCursor }
  /** At the place of a key of the object literal that starts at `object` (after `{` or `,`, or in the key being typed). */
  | { kind: "key"; object: number }
  | { kind: "code" };

/** What the cursor at `offset` of `text` (a TypeScript file named `fileName`) is in. */
export function cursorContext(fileName: string, text: string, offset: number): CursorContext {
  const sf = ts.createSourceFile(fileName, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false, scriptKind(fileName));
  // The last token that starts before the cursor, with its ancestors (tokens such as `{` and `,`
  // exist only as children made by `getChildren`, under a syntax list of the object's properties).
  const chain: ts.Node[] = [];
  let node: ts.Node = sf;
  for (;;) {
    let next: ts.Node | undefined;
    for (const k of node.getChildren(sf)) {
      if (k.kind === ts.SyntaxKind.EndOfFileToken || k.end <= k.pos) continue;
      const start = k.getStart(sf);
      if (start >= offset) break;
      if (start < k.end) next = k; // (a node the parser made up to recover has no width)
    }
    if (!next) break;
    chain.push(next);
    if (next.getChildCount(sf) === 0) break;
    node = next;
  }
  const last = chain[chain.length - 1];
  const from = last ? last.end : 0;
  if (from < offset && inComment(text, from, offset)) return { kind: "comment" };
  if (!last) return { kind: "code" };
  // Syntax lists aside, a token's parent is the node it belongs to.
  const up = chain.filter((n) => n.kind !== ts.SyntaxKind.SyntaxList);
  const parent = up[up.length - 2];
  const grand = up[up.length - 3];
  if (isStringToken(last) && offset < last.end + (unterminated(last) ? 1 : 0)) {
    const start = last.getStart(sf) + 1;
    const terminated = !unterminated(last);
    const closing = last.kind === ts.SyntaxKind.TemplateHead || last.kind === ts.SyntaxKind.TemplateMiddle ? 2 : 1; // `${`
    return {
      kind: "string",
      string: {
        start, end: terminated ? last.end - closing : last.end, terminated,
        module: parent !== undefined && isModuleSpecifier(last, parent, grand),
        template: last.kind !== ts.SyntaxKind.StringLiteral && last.kind !== ts.SyntaxKind.NoSubstitutionTemplateLiteral,
      },
    };
  }
  const object = (n: ts.Node | undefined): CursorContext => (n && ts.isObjectLiteralExpression(n) ? { kind: "key", object: n.getStart(sf) } : { kind: "code" });
  // After an object literal's `{` or `,`.
  if (offset >= last.end && (last.kind === ts.SyntaxKind.OpenBraceToken || last.kind === ts.SyntaxKind.CommaToken)) return object(parent);
  // In (or just after) the key being typed: `{ na| }` (a shorthand property) or `{ na|: 1 }`.
  if (offset <= last.end && ts.isIdentifier(last) && parent && (ts.isShorthandPropertyAssignment(parent) || ts.isPropertyAssignment(parent)) && parent.name === last) return object(grand);
  return { kind: "code" };
}

/** Whether `offset` is inside a comment of the trivia from `from` (a token's end: only white space and comments follow, up to the next token). */
function inComment(text: string, from: number, offset: number): boolean {
  for (let i = from; i < offset;) {
    if (text.startsWith("//", i)) {
      let end = i + 2;
      while (end < text.length && !isLineBreak(text.charCodeAt(end))) end++;
      if (offset <= end) return true;
      i = end;
    } else if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0 || offset < close + 2) return true;
      i = close + 2;
    } else i++;
  }
  return false;
}

function isStringToken(n: ts.Node): boolean {
  return n.kind === ts.SyntaxKind.StringLiteral || n.kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
    n.kind === ts.SyntaxKind.TemplateHead || n.kind === ts.SyntaxKind.TemplateMiddle || n.kind === ts.SyntaxKind.TemplateTail;
}

function unterminated(n: ts.Node): boolean {
  return !!(n as ts.LiteralLikeNode).isUnterminated;
}

function isModuleSpecifier(str: ts.Node, parent: ts.Node, grand: ts.Node | undefined): boolean {
  if (isModuleName(str, parent, grand)) return true;
  return ts.isCallExpression(parent) && parent.arguments[0] === str &&
    (parent.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(parent.expression) && parent.expression.text === "require"));
}
