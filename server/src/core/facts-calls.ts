/**
 * The whole tree's reading for one file's facts: calls (`require`, `import()`, `defineResource`,
 * `collection`, `secret`), import types, operation-id strings, collections; and the workflows
 * (`facts-workflows.ts`). Rather than visiting every node, it finds the few places that can
 * matter by their text.
 */
import ts from "./typescript.ts";
import { isFrameworkModule } from "./company.ts";
import { parseOpId, type CollectionFact, type ImportedName } from "./fact-types.ts";
import { readWorkflows } from "./facts-workflows.ts";
import type { TreeContext } from "./tree-context.ts";
import { hasModifier, isModuleName, prop, unwrap } from "./ts-nodes.ts";
import type { Range } from "./types.ts";

/** `(("x"))` → `"x"`: Node loads the module either way, and ESTree (the lint plugin's hosts) keeps no parentheses. */
function withoutParentheses(node: ts.Expression | undefined): ts.Expression | undefined {
  while (node && ts.isParenthesizedExpression(node)) node = node.expression;
  return node;
}

/** The start of the identifier that holds the `\u` at `at` (`re\u0071uire` → the `r`). */
function identifierStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && /[\w$\\]/.test(text[i - 1])) i--;
  return i;
}

/**
 * Where calls that matter may start: `require(`, `import(`, `defineResource(`, and any `\u` (an
 * escaped `require`). A match is only where to look: the syntax tree decides, so `import`
 * followed by a comment, `...require(` and `x.require` (no call of `require`) are all looked at.
 * (`x.defineResource` is looked at by its own loop.)
 */
const CALL_PATTERN = /(?<![\w$.])defineResource(?![\w$])|(?<![\w$])(?:require|import)(?![\w$])|\\u/g;

/**
 * The deepest node containing an offset, with its ancestors from `root` (the chain, `root` first):
 * where `readCalls` descends to at each place its text search found. Sibling ranges (`pos` to
 * `end`, leading trivia included) come in order and do not overlap, so the descent from any
 * ancestor that contains the offset is the descent from the root: the last chain's ancestors that
 * still contain the next offset are kept (a search's offsets come in order, often close
 * together), and a node left is not entered again while the offsets go forward. A list of
 * children (a block's statements, a call's arguments, an object's properties) is searched by
 * halves, not from its first: a bundle's thousands of statements, each holding an operation
 * reference, cost their number times its logarithm, not its square (each offset's search from the
 * first statement made a 2 MB bundle's facts cost 4 to 10 parses). The chain is shared: a caller
 * reads it before asking for the next one. `visited`: the children looked at so far (a test
 * counts them).
 */
export function chainFinder(root: ts.Node): { chainAt(offset: number): ts.Node[]; readonly visited: number } {
  const chain: ts.Node[] = [root];
  let target = 0;
  let visited = 0;
  const inNode = (c: ts.Node): ts.Node | undefined => {
    visited++;
    return c.pos <= target && target < c.end ? c : undefined;
  };
  // The last child starting at or before the target: the only one of the list that may contain it.
  const inList = (cs: ts.NodeArray<ts.Node>): ts.Node | undefined => {
    let lo = 0, hi = cs.length - 1;
    if (hi < 0) return undefined;
    while (lo < hi) {
      visited++;
      const mid = (lo + hi + 1) >> 1;
      if (cs[mid].pos <= target) lo = mid; else hi = mid - 1;
    }
    return inNode(cs[lo]);
  };
  return {
    chainAt(offset: number): ts.Node[] {
      while (chain.length > 1) {
        const last = chain[chain.length - 1];
        if (last.pos <= offset && offset < last.end) break;
        chain.pop();
      }
      target = offset;
      for (let node = chain[chain.length - 1]; ;) {
        const next: ts.Node | undefined = ts.forEachChild(node, inNode, inList);
        if (!next) return chain;
        chain.push(next);
        node = next;
      }
    },
    get visited() { return visited; },
  };
}

/** What a node that declares nothing declares (`namesDeclaredBy` in `readCalls`). */
const NO_NAMES: ReadonlySet<string> = new Set();

/** Reads what the statements' reading left (see the header) into `ctx.facts`. */
export function readCalls(ctx: TreeContext): void {
  const { sf, text, r, facts, specifierNodes, addImport, specOfCall, nameText, exportedByName } = ctx;
  // ---- The whole tree: calls, string literals, dynamic imports ---------------------------------
  const collectionLocals = new Set<string>();
  const secretLocals = new Set<string>();
  /** Namespaces of the framework's modules (`import * as d from "@sanoma-ai/workflows/data"`): `d.collection(…)`, `d.secret(…)`. */
  const frameworkNamespaces = new Set<string>();
  /** Namespaces of any module: `h.secret(…)` is `secret` taken from there (A7: "wherever `secret` was imported from"). */
  const namespaces = new Set<string>();
  for (const [local, b] of facts.bindings) {
    if (b.imported === "collection" && isFrameworkModule(b.source)) collectionLocals.add(local);
    if (b.imported === "secret") secretLocals.add(local);
    if (b.imported === "*") { namespaces.add(local); if (isFrameworkModule(b.source)) frameworkNamespaces.add(local); }
  }
  const exportedCollectionCalls = new Map<ts.Node, { name: ts.Identifier; statement: ts.Node }>();
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st) && hasModifier(st, ts.SyntaxKind.ExportKeyword)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) exportedCollectionCalls.set(unwrap(d.initializer), { name: d.name, statement: st });
    }
  }
  for (const { local, exported } of exportedByName) {
    const call = unwrap(local.init);
    if (!exportedCollectionCalls.has(call)) exportedCollectionCalls.set(call, { name: exported, statement: local.statement });
  }

  // Rather than visiting every node (as costly as parsing again), find the few places that can
  // matter by their text, then descend to the node at each (`chainFinder`).
  const { chainAt } = chainFinder(sf);
  const startsAt = (node: ts.Node, offset: number) => node.getStart(sf) === offset;

  /** Calls and dynamic imports, by the identifier (or keyword) that starts their callee. */
  const callAt = (offset: number): void => {
    const chain = chainAt(offset);
    const node = chain[chain.length - 1];
    const parent = chain[chain.length - 2];
    if (node.kind === ts.SyntaxKind.ImportType) {
      const t = node as ts.ImportTypeNode;
      if (ts.isLiteralTypeNode(t.argument) && ts.isStringLiteral(t.argument.literal) && !specifierNodes.has(t.argument.literal)) {
        addImport(t.argument.literal, [{ imported: "*", range: r(t.argument.literal) }]);
      }
      return;
    }
    if (!parent || !startsAt(node, offset)) return;
    if (node.kind === ts.SyntaxKind.ImportKeyword && ts.isCallExpression(parent) && parent.expression === node) {
      const a = withoutParentheses(parent.arguments[0]);
      if (a && ts.isStringLiteralLike(a) && !specifierNodes.has(a)) addImport(a, requiredNames(chain, true) ?? [{ imported: "*", range: r(a) }]);
      return;
    }
    if (!ts.isIdentifier(node)) return;
    const name = node.text;
    if (ts.isCallExpression(parent) && parent.expression === node) {
      if (name === "require") {
        const a = withoutParentheses(parent.arguments[0]);
        if (parent.arguments.length === 1 && a && ts.isStringLiteralLike(a) && !specifierNodes.has(a)) addImport(a, requiredNames(chain) ?? [{ imported: "*", range: r(a) }]);
      } else if (collectionLocals.has(name) && !shadowed(chain, name)) readCollection(parent);
      else if (secretLocals.has(name) && !shadowed(chain, name)) secretCall(parent);
      else if (name === "defineResource") specOfCall(parent);
    } else if (ts.isPropertyAccessExpression(parent) && parent.name === node) {
      const call = chain[chain.length - 3];
      if (!call || !ts.isCallExpression(call) || call.expression !== parent) return;
      if (name === "defineResource") specOfCall(call);
      else if (ts.isIdentifier(parent.expression) && namespaces.has(parent.expression.text) && !shadowed(chain, parent.expression.text)) {
        if (name === "collection" && frameworkNamespaces.has(parent.expression.text)) readCollection(call);
        else if (name === "secret") secretCall(call);
      }
    }
  };

  /**
   * `const { secret, x: y } = require("m")`, and `… = await import("m")` (`awaited`): the names the
   * declaration takes, at their keys (a rest element or a computed key takes `*` there), as an
   * import clause's; undefined for any other use of the call. The declaration's whole initializer
   * must be the call, or the `await` of it (parentheses aside: ESTree keeps none), as `sites.ts`
   * reads it.
   */
  const requiredNames = (chain: ts.Node[], awaited = false): ImportedName[] | undefined => {
    // (The tree has no parent links: `chain` ends with `require` or `import` and its call.)
    let value = chain[chain.length - 2];
    let i = chain.length - 3;
    while (i >= 0 && ts.isParenthesizedExpression(chain[i])) i--;
    if (awaited) {
      if (i < 0 || !ts.isAwaitExpression(chain[i]) || withoutParentheses((chain[i] as ts.AwaitExpression).expression) !== value) return undefined;
      value = chain[i--];
      while (i >= 0 && ts.isParenthesizedExpression(chain[i])) i--;
    }
    const up = chain[i];
    if (!up || !ts.isVariableDeclaration(up) || !ts.isObjectBindingPattern(up.name) || up.initializer === undefined || withoutParentheses(up.initializer) !== value) return undefined;
    return up.name.elements.map((e): ImportedName => {
      if (e.dotDotDotToken) return { imported: "*", range: r(e.name) };
      const key = e.propertyName ?? e.name;
      if (ts.isComputedPropertyName(key)) return { imported: "*", range: r(key.expression) }; // (ESTree's key: no brackets)
      const text = ts.isIdentifier(key) || ts.isStringLiteral(key) || ts.isNumericLiteral(key) ? key.text : undefined;
      return { imported: text ?? "*", range: r(key) };
    });
  };

  const secretCall = (call: ts.CallExpression): void => {
    const a = call.arguments[0];
    if (a && ts.isStringLiteralLike(a)) facts.secretCalls.push({ name: a.text, range: r(a) });
  };

  /**
   * The names a node declares for the code inside it: a function's parameters (and a function
   * expression's own name), the `var`/`let`/`const`, functions and classes among a block's
   * statements, a `for` loop's variables, a `catch` clause's. Read once per node: a bundle's
   * function of thousands of statements holding thousands of `secret(…)` calls is not searched
   * whole for each (it was: 8,000 calls took 100 s).
   */
  const declaredIn = new Map<ts.Node, ReadonlySet<string>>();
  const namesDeclaredBy = (n: ts.Node): ReadonlySet<string> => {
    const known = declaredIn.get(n);
    if (known !== undefined) return known;
    const names = new Set<string>();
    const bind = (b: ts.BindingName | undefined): void => {
      if (b === undefined) return;
      if (ts.isIdentifier(b)) names.add(b.text);
      else for (const e of b.elements) if (!ts.isOmittedExpression(e)) bind(e.name);
    };
    if (ts.isFunctionLike(n)) {
      for (const p of n.parameters) bind(p.name);
      if (ts.isFunctionExpression(n) && n.name) names.add(n.name.text);
    } else if (ts.isBlock(n) || ts.isModuleBlock(n) || ts.isCaseClause(n) || ts.isDefaultClause(n)) {
      for (const st of n.statements) {
        if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) bind(d.name);
        else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) names.add(st.name.text);
      }
    } else if ((ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n)) && n.initializer && ts.isVariableDeclarationList(n.initializer)) {
      for (const d of n.initializer.declarations) bind(d.name);
    } else if (ts.isCatchClause(n)) bind(n.variableDeclaration?.name);
    const held = names.size > 0 ? names : NO_NAMES;
    declaredIn.set(n, held);
    return held;
  };

  /**
   * Whether `name` at the end of `chain` names something declared inside the file (a parameter,
   * a local `const`, a function) rather than the top-level import: `(secret) => secret("x")`.
   */
  const shadowed = (chain: ts.Node[], name: string): boolean => {
    for (let i = chain.length - 2; i >= 1; i--) if (namesDeclaredBy(chain[i]).has(name)) return true;
    return false;
  };

  /** A string literal whose quote is at `offset - 1` (its text starting with `data.`, or with an escape before that). */
  const opRefAt = (offset: number): void => {
    const chain = chainAt(offset);
    const node = chain[chain.length - 1];
    if ((node.kind !== ts.SyntaxKind.StringLiteral && node.kind !== ts.SyntaxKind.NoSubstitutionTemplateLiteral) || !startsAt(node, offset - 1) || specifierNodes.has(node)) return;
    // Module specifiers are no operation references (A8), nested in `declare module "m" { … }` too.
    if (isModuleName(node, chain[chain.length - 2], chain[chain.length - 3])) return;
    const op = parseOpId((node as ts.StringLiteralLike).text);
    if (op) facts.opRefs.push({ collection: op.collection, op: op.op, range: r(node) });
  };

  // Static imports were read above: only `import(` (a dynamic import or an import type) is looked for.
  const callNames = ["defineResource", ...collectionLocals, ...secretLocals];
  const callPattern = collectionLocals.size || secretLocals.size
    ? new RegExp(`(?<![\\w$.])(?:${callNames.map((n) => n.replace(/\$/g, "\\$")).join("|")})(?![\\w$])|(?<![\\w$])(?:require|import)(?![\\w$])|\\\\u`, "g")
    : CALL_PATTERN;
  callPattern.lastIndex = 0;
  let escaped = -1; // the last identifier looked at for a `\u` in it: one with two is looked at once
  for (let m = callPattern.exec(text); m; m = callPattern.exec(text)) {
    if (m[0] !== "\\u") { callAt(m.index); continue; }
    const start = identifierStart(text, m.index);
    if (start !== escaped) callAt((escaped = start));
  }
  // `x.defineResource(...)`: the member form; `d.collection(...)` on a framework namespace, `d.secret(...)` on any.
  for (let i = text.indexOf(".defineResource"); i >= 0; i = text.indexOf(".defineResource", i + 1)) callAt(i + 1);
  if (namespaces.size > 0) {
    for (const member of [".collection", ".secret"]) for (let i = text.indexOf(member); i >= 0; i = text.indexOf(member, i + 1)) callAt(i + 1);
  }
  for (let i = text.indexOf("data."); i >= 0; i = text.indexOf("data.", i + 5)) {
    const q = text.charCodeAt(i - 1);
    if (q === 34 || q === 39 || q === 96) opRefAt(i); // " ' `
  }
  // A string's text is its value (A8): `"\x64ata.orders.get"` is an operation reference too. What
  // such a string holds before its first backslash is its value's start: not all of `data.` (the
  // search above found those), so at most `data`. Found from each backslash, as `data.` is found
  // (no visit of every node, which cost as much as the rest of the reading: a bundle's regular
  // expressions put a backslash in nearly every file).
  const found = facts.opRefs.length;
  for (let b = text.indexOf("\\"); b >= 0; b = text.indexOf("\\", b + 1)) {
    // The quote that opens the string, 0 to 4 characters before the backslash (`"\x64…`, `"dat\x61…`).
    for (let k = 0; k <= 4 && k < b; k++) {
      const q = text.charCodeAt(b - k - 1);
      if (q === 34 || q === 39 || q === 96) { if (text.startsWith("data".slice(0, k), b - k)) opRefAt(b - k); break; } // " ' `
    }
  }
  // In the text's order, as the text scan gives them.
  if (facts.opRefs.length > found) facts.opRefs.sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);

  function readCollection(call: ts.CallExpression) {
    const exported = exportedCollectionCalls.get(call);
    const name = exported?.name;
    const c: CollectionFact = { callRange: r(call.expression), exported: !!name, exportName: name?.text, nameRange: name ? r(name) : undefined };
    if (exported) c.statementRange = r(exported.statement);
    const a = call.arguments[0] && unwrap(call.arguments[0]);
    if (a && ts.isObjectLiteralExpression(a)) {
      c.options = { range: r(a), ...(a.properties.length > 0 ? { first: r(a.properties[0]) } : {}) };
      const n = prop(a, "name");
      if (n && ts.isStringLiteralLike(n)) c.nameLiteral = { value: n.text, range: r(n) };
      else if (n) c.nameNotLiteral = true;
      const k = prop(a, "key");
      if (k && ts.isStringLiteralLike(k)) c.key = { value: k.text, range: r(k) };
      const f = prop(a, "fields");
      if (f && ts.isObjectLiteralExpression(f)) {
        const fields: { name: string; range: Range }[] = [];
        let known = true;
        for (const p of f.properties) {
          if (ts.isSpreadAssignment(p) || !p.name) { known = false; break; }
          const key = nameText(p.name);
          if (key === undefined) { known = false; break; }
          fields.push({ name: key, range: r(p.name) });
        }
        if (known) c.fields = fields;
      }
    }
    facts.collections.push(c);
  }

  facts.workflows = readWorkflows(sf, r, exportedByName);
}
