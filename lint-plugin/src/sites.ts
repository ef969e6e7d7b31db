/**
 * ESTree nodes → the import sites that the core's reach rules judge (SPEC A9). This mirrors, form
 * by form, what `server/src/core/facts.ts` collects from TypeScript's tree, with the same names
 * and the same ranges, so the plugin's findings land exactly where the server's and
 * `sanoma-check`'s do:
 *
 *   import d, * as ns, { a as b } from "m"   names default (at d), * (at ns), a (at a)
 *   export { a as b } from "m"               a (at a: the local side)
 *   export * from "m" / export * as ns ...   * (at the statement / at ns)
 *   import("m"), require("m")                * (at the string literal)
 *   const { a, b: c } = require("m")         a (at a), b (at b)
 *   const { a, b: c } = await import("m")    a (at a), b (at b)
 *   import x = require("m")                  * (at x)
 *   type T = import("m").T                   * (at the string literal)
 *
 * Declarations count at the top level only (inside `declare module "x" {}` they declare types, not
 * imports), as the core reads them from the file's statements; `import()`, `require()` and import
 * types count wherever they are.
 */
import type { ImportSite } from "../../server/src/core/sites.ts";
import type { Node, Visitor } from "./estree.ts";

export type Site = ImportSite<Node>;

/** A string literal's value, or a template literal's without substitutions (the core's "string-literal-like"). */
function literalText(node: unknown): string | undefined {
  const n = node as Node | null | undefined;
  if (!n) return undefined;
  if (n.type === "Literal") return typeof n.value === "string" ? n.value : undefined;
  if (n.type === "TemplateLiteral") {
    const quasis = n.quasis as { value: { cooked: string | null } }[] | undefined;
    const expressions = n.expressions as unknown[] | undefined;
    if (expressions?.length === 0 && quasis?.length === 1 && typeof quasis[0].value.cooked === "string") return quasis[0].value.cooked;
  }
  return undefined;
}

/** An identifier's name or a string literal's value (`import { "a-b" as c }`). */
function nameOf(node: Node): string {
  return node.type === "Identifier" ? (node.name as string) : String(node.value);
}

const atTopLevel = (node: Node): boolean => node.parent?.type === "Program";

function importDeclaration(node: Node): Site | undefined {
  const source = node.source as Node;
  const specifier = literalText(source);
  if (specifier === undefined || !atTopLevel(node)) return undefined;
  const names: Site["names"] = [];
  for (const s of (node.specifiers as Node[] | undefined) ?? []) {
    if (s.type === "ImportDefaultSpecifier") names.push({ imported: "default", range: s.local as Node });
    else if (s.type === "ImportNamespaceSpecifier") names.push({ imported: "*", range: s.local as Node });
    else {
      const imported = (s.imported ?? s.local) as Node;
      names.push({ imported: nameOf(imported), range: imported });
    }
  }
  return { specifier, specifierRange: source, names };
}

function exportNamed(node: Node): Site | undefined {
  const source = node.source as Node | null;
  const specifier = literalText(source);
  if (specifier === undefined || !atTopLevel(node)) return undefined;
  const names: Site["names"] = [];
  for (const s of (node.specifiers as Node[] | undefined) ?? []) {
    const local = s.local as Node;
    names.push({ imported: nameOf(local), range: local });
  }
  return { specifier, specifierRange: source!, names };
}

function exportAll(node: Node): Site | undefined {
  const source = node.source as Node;
  const specifier = literalText(source);
  if (specifier === undefined || !atTopLevel(node)) return undefined;
  const exported = node.exported as Node | null | undefined;
  return { specifier, specifierRange: source, names: [{ imported: "*", range: exported ?? node }] };
}

function importEquals(node: Node): Site | undefined {
  const ref = node.moduleReference as Node | undefined;
  if (ref?.type !== "TSExternalModuleReference") return undefined;
  const literal = ref.expression as Node;
  const specifier = literalText(literal);
  if (specifier === undefined) return undefined;
  // `export import x = require("m")` is an ExportNamedDeclaration around it, still a top-level statement.
  const parent = node.parent;
  if (!(parent?.type === "Program" || (parent?.type === "ExportNamedDeclaration" && atTopLevel(parent)))) return undefined;
  return { specifier, specifierRange: literal, names: [{ imported: "*", range: node.id as Node }] };
}

function importExpression(node: Node): Site | undefined {
  const literal = node.source as Node;
  const specifier = literalText(literal);
  return specifier === undefined ? undefined : { specifier, specifierRange: literal, names: requiredNames(node, true) ?? [{ imported: "*", range: literal }] };
}

function requireCall(node: Node): Site | undefined {
  const callee = node.callee as Node;
  if (callee.type !== "Identifier" || callee.name !== "require") return undefined;
  const args = node.arguments as Node[];
  if (args.length !== 1) return undefined;
  // `(require)("m")`: TypeScript sees a parenthesized callee there and the core no require call.
  if (callee.range[0] !== node.range[0]) return undefined;
  const specifier = literalText(args[0]);
  return specifier === undefined ? undefined : { specifier, specifierRange: args[0], names: requiredNames(node) ?? [{ imported: "*", range: args[0] }] };
}

/**
 * `const { secret, x: y } = require("m")`, and `… = await import("m")` (`awaited`): the names at
 * their keys (a rest or a computed key: `*` there), as the core reads them.
 */
function requiredNames(call: Node, awaited = false): Site["names"] | undefined {
  let value = call;
  let up = call.parent ?? undefined;
  while (up?.type === "ParenthesizedExpression") up = up.parent ?? undefined;
  if (awaited) {
    if (up?.type !== "AwaitExpression") return undefined;
    value = up;
    up = up.parent ?? undefined;
    while (up?.type === "ParenthesizedExpression") up = up.parent ?? undefined;
  }
  if (up?.type !== "VariableDeclarator" || (up.id as Node | undefined)?.type !== "ObjectPattern") return undefined;
  let init = up.init as Node | undefined;
  while (init?.type === "ParenthesizedExpression") init = init.expression as Node;
  if (init !== value) return undefined;
  return ((up.id as Node).properties as Node[]).map((p) => {
    if (p.type === "RestElement") return { imported: "*", range: p.argument as Node };
    const key = p.key as Node;
    const name = p.computed ? undefined : key.type === "Identifier" ? (key.name as string) : key.type === "Literal" ? String(key.value) : undefined;
    return { imported: name ?? "*", range: key };
  });
}

function importType(node: Node): Site | undefined {
  // oxc and typescript-eslint ≥ 8.?? give `source`; older typescript-eslint a TSLiteralType `argument`.
  let literal = node.source as Node | undefined;
  if (!literal) {
    const arg = node.argument as Node | undefined;
    if (arg?.type === "TSLiteralType") literal = arg.literal as Node;
  }
  if (literal?.type !== "Literal" || typeof literal.value !== "string") return undefined;
  return { specifier: literal.value, specifierRange: literal, names: [{ imported: "*", range: literal }] };
}

const FORMS: Record<string, (node: Node) => Site | undefined> = {
  ImportDeclaration: importDeclaration,
  ExportNamedDeclaration: exportNamed,
  ExportAllDeclaration: exportAll,
  TSImportEqualsDeclaration: importEquals,
  ImportExpression: importExpression,
  CallExpression: requireCall,
  TSImportType: importType,
};

/** A visitor that calls `onSite` for every import site of a file, in any host. */
export function siteVisitor(onSite: (site: Site) => void): Visitor {
  const visitor: Visitor = {};
  for (const [type, read] of Object.entries(FORMS)) {
    visitor[type] = (node) => {
      const site = read(node);
      if (site) onSite(site);
    };
  }
  return visitor;
}
