/**
 * Small readings of TypeScript's syntax tree that the facts' readers share: how a file is parsed
 * (its script kind, the options), what a node unwraps to, whether a string names a module.
 */
import ts from "./typescript.ts";

export function scriptKind(fileName: string): ts.ScriptKind {
  if (fileName.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (fileName.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** How every file is parsed: the latest syntax; JSDoc never read (skipping it makes parsing cheaper). */
export const PARSE_OPTIONS: ts.CreateSourceFileOptions = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };

/**
 * Whether a string literal names a module where it stands: an import's or export's specifier (at
 * any depth: inside `declare module "m" { }` too), `import x = require("m")`'s, an import type's,
 * an ambient module's name. (The calls `import("m")` and `require("m")` are import sites.)
 */
export function isModuleName(node: ts.Node, parent: ts.Node | undefined, grandparent: ts.Node | undefined): boolean {
  if (!parent) return false;
  return ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node)
    || ts.isExternalModuleReference(parent)
    || (ts.isLiteralTypeNode(parent) && grandparent !== undefined && ts.isImportTypeNode(grandparent))
    || (ts.isModuleDeclaration(parent) && parent.name === node);
}

export function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  return e;
}

export function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  const mods = (node as { modifiers?: ts.NodeArray<ts.ModifierLike> }).modifiers;
  return !!mods?.some((m) => m.kind === kind);
}

/**
 * The value of a property written `name: …` (or `{ name }`) in an object literal: the last one so
 * written, as JavaScript keeps the last of a key written twice (`{ name: "a1", name: "a2" }` is
 * named `a2`; TypeScript's error for it is no syntax error, so such a file loads).
 */
export function prop(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (let i = obj.properties.length - 1; i >= 0; i--) {
    const p = obj.properties[i];
    if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name) return unwrap(p.initializer);
    if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return p.name;
  }
  return undefined;
}

/** A contract property "is present and not false or undefined" (A4). */
export function literalTruth(e: ts.Expression): boolean | "unknown" {
  e = unwrap(e);
  if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
  if ((ts.isIdentifier(e) && e.text === "undefined") || ts.isVoidExpression(e)) return false;
  if (e.kind === ts.SyntaxKind.TrueKeyword || ts.isObjectLiteralExpression(e) || ts.isStringLiteralLike(e) || ts.isNumericLiteral(e) || ts.isArrayLiteralExpression(e) || ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return true;
  if (e.kind === ts.SyntaxKind.NullKeyword) return true; // present, and neither false nor undefined (A4)
  return "unknown";
}

/** Whether a zod chain marks its field optional: `.optional()`, `.nullish()` or `.default(...)` anywhere in it. */
export function chainIsOptional(e: ts.Expression): boolean {
  let cur: ts.Expression = unwrap(e);
  while (ts.isCallExpression(cur) || ts.isPropertyAccessExpression(cur)) {
    if (ts.isCallExpression(cur)) {
      const callee = cur.expression;
      if (ts.isPropertyAccessExpression(callee) && ["optional", "nullish", "default"].includes(callee.name.text)) return true;
      cur = callee;
    } else cur = cur.expression;
  }
  return false;
}
