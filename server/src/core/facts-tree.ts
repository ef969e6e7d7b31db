/**
 * One file's text → its facts, from TypeScript's syntax tree (the main user of the parser). The
 * tree is dropped as soon as the facts are read: the index keeps facts, never trees. Broken code is
 * not an error: a file with syntax errors yields what can still be read plus the count of errors.
 * The statements are read here (imports, exports, bindings, declarations, the config); the rest of
 * the tree by `facts-calls.ts`, specs by `facts-specs.ts`.
 */
import ts from "./typescript.ts";
import type { ConfigFact, FileFacts, ImportedName, Ref, SecretBindingFact, DesiredKey, DeclarationFact, SyntaxVerdict, WorkflowFact } from "./fact-types.ts";
import { readCalls } from "./facts-calls.ts";
import { constsExportedByName as constsExportedByNameOf, readWorkflows, topConstsOf, type ExportedByName, type TopConst } from "./facts-workflows.ts";
import { specReader } from "./facts-specs.ts";
import { internAll } from "./intern.ts";
import { nestingDepth } from "./scan-tokens.ts";
import { LineMap } from "./text.ts";
import { vouch, vouchesFor } from "./vouch.ts";
import { hasModifier, literalTruth, PARSE_OPTIONS, prop, scriptKind, unwrap } from "./ts-nodes.ts";
import type { Range } from "./types.ts";

interface Options { isConfig?: boolean }

type Assignment = ts.BinaryExpression & { operatorToken: { kind: ts.SyntaxKind.EqualsToken } };

/** `a = b` (not `a += b`). */
function isAssignment(e: ts.Expression): e is Assignment {
  return ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}

/** `module.exports`. */
function isModuleExportsNode(e: ts.Expression): boolean {
  e = unwrap(e);
  return ts.isPropertyAccessExpression(e) && e.name.text === "exports" && ts.isIdentifier(e.expression) && e.expression.text === "module";
}

/** TypeScript's `export = …` somewhere in a text (a comment too: the statements say). */
const EXPORT_EQUALS = /\bexport\s*=/;

/** How many names a CommonJS `module.exports` is followed through inside its file (`module.exports = a`, `const a = b`…). */
const MAX_FOLLOW = 8;

/**
 * The objects a CommonJS module fills and makes its `module.exports`: a top-level `var x = {…}`
 * assigned to `module.exports` whole, or through a call given it alone (esbuild's, and so tsup's:
 * `var x_exports = {}; __export(x_exports, {…}); module.exports = __toCommonJS(x_exports);`,
 * minified too; by hand, `const api = {}; api.machine = …; module.exports = api;`).
 */
function commonJsAliases(sf: ts.SourceFile): Set<string> {
  const objects = new Set<string>();
  const aliases = new Set<string>();
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        const init = d.initializer && unwrap(d.initializer);
        if (ts.isIdentifier(d.name) && init && ts.isObjectLiteralExpression(init)) objects.add(d.name.text);
      }
    } else if ((ts.isExpressionStatement(st) && isAssignment(st.expression) && isModuleExportsNode(st.expression.left)) || (ts.isExportAssignment(st) && st.isExportEquals)) {
      // (TypeScript's `export = api` is `module.exports = api`.)
      const right = unwrap(ts.isExportAssignment(st) ? st.expression : (st.expression as Assignment).right);
      const whole = ts.isCallExpression(right) && right.arguments.length === 1 ? unwrap(right.arguments[0]) : right;
      if (ts.isIdentifier(whole) && objects.has(whole.text)) aliases.add(whole.text);
    }
  }
  return aliases;
}

/** What a file nested too deeply to parse is read as: nothing (`unread` says why); whether it loads, only its depth tells (`LOAD_DEPTH`). */
export const TOO_DEEP = "nested too deeply to be read (the parser ran out of stack)";

/**
 * How deep brackets nest in a file Node 20 cannot load: its parser (V8's) runs out of stack on the
 * way down, from some 640 brackets deep (arrow functions returning arrow functions) to some 2,800
 * (blocks in blocks); the body of a function not called yet is only pre-parsed at load, which gets
 * to some 3,200 for blocks, and fails at the first call (docs/decisions.md). A file the framework
 * loads nested this deep is one syntax error, whatever a parser made of it; one nested less is
 * not said to fail (TypeScript's parser may run out of stack on it first: nothing is known then).
 */
export const LOAD_DEPTH = 3000;

/**
 * How deep brackets may nest in a text TypeScript's parser is given. Its parser recurses per
 * bracket, and runs out of stack where the host's stack ends: on a main thread (the VS Code
 * extension's server, `dist/check.js`, tsserver's plugin, oxlint's) from some 420 deep for the
 * worst shape measured (`(() => (() => …))`, cold), some 460 for type literals, 500 to 2,800 for
 * others; in the package's commands' worker thread (4 MB) some four times deeper. A verdict that
 * depends on where it ran made the hosts disagree (A11, docs/decisions.md): a text nested this
 * deep or more is not given to the parser in any host, and is read as one it ran out of stack on
 * (nothing known of it, or, `LOAD_DEPTH` deep, one error). 300 is below every main thread's
 * measured limit, with a margin for a host called from deeper in its own stack; `vouch.ts`'s
 * `MAX_DEPTH` is below it, so that the recognizer never vouches for a text this deep either.
 */
export const PARSE_DEPTH = 300;

/** The last text measured by `depthOf`, and its depth: a text too deep to parse is measured once for both limits. */
let measured: { text: string; depth: number } | undefined;

/** How deep a text's brackets nest (`nestingDepth`), 0 for one with fewer than `atLeast` opening brackets in all (not even tokenized). */
function depthOf(text: string, atLeast: number): number {
  let opening = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) opening++;
  }
  if (opening < atLeast) return 0;
  // (Where our tokenizer refuses the text, TypeScript's scanner measures it: `depthByScanner`.)
  if (measured?.text !== text) measured = { text, depth: nestingDepth(text) ?? depthByScanner(text) };
  return measured.depth;
}

/** Whether a text nests `PARSE_DEPTH` deep or more: TypeScript's parser is not given it (in any host). */
export function tooDeepToParse(text: string): boolean {
  return depthOf(text, PARSE_DEPTH) >= PARSE_DEPTH;
}

const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * The verdict on a text nested `LOAD_DEPTH` deep or deeper: it does not load, one error at its start,
 * the first character of its first line (where the nesting goes too deep, a parser that runs out of
 * stack cannot say, and the text may be one line of a million characters). Undefined for a
 * text that nests less (most: one with fewer opening brackets in all is not even tokenized).
 */
export function tooDeepToLoad(text: string): SyntaxVerdict | undefined {
  const depth = depthOf(text, LOAD_DEPTH);
  measured = undefined; // (asked last of a text: no text kept past its verdict)
  if (depth < LOAD_DEPTH) return undefined;
  // The first character of the first line that is not a blank (the line's start when there is none).
  let at = 0;
  while (text[at] === " " || text[at] === "\t" || text[at] === "\uFEFF") at++;
  const blank = at === text.length || text[at] === "\n" || text[at] === "\r";
  return {
    errors: 1,
    first: {
      message: `nested ${thousands(depth)} brackets deep: Node's parser runs out of stack on code nested ${thousands(LOAD_DEPTH)} deep`,
      range: new LineMap(text).range(blank ? 0 : at, blank ? 0 : at + 1),
    },
  };
}

/**
 * How deep a text's brackets and template substitutions nest, by TypeScript's scanner (iterative),
 * where our tokenizer refuses the text: a file of 5,000 nested arrays after a name such as `café`,
 * or after a string left open, was measured only up to there, and skipped as unknown where it
 * cannot load. A `/` is a regular expression's start after what cannot end an operand (as the
 * tokenizer guesses); a `}` that closes a template's substitution goes on with its template.
 */
function depthByScanner(text: string): number {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const K = ts.SyntaxKind;
  const open: boolean[] = []; // true: a template's substitution
  let deepest = 0;
  let previous: ts.SyntaxKind = K.Unknown;
  for (let t = scanner.scan(); t !== K.EndOfFileToken; t = scanner.scan()) {
    if (t === K.OpenParenToken || t === K.OpenBracketToken || t === K.OpenBraceToken) open.push(false);
    else if (t === K.TemplateHead) open.push(true);
    else if (t === K.CloseParenToken || t === K.CloseBracketToken) open.pop();
    else if (t === K.CloseBraceToken) {
      if (open.at(-1) === true) t = scanner.reScanTemplateToken(false);
      if (t !== K.TemplateMiddle) open.pop();
    } else if ((t === K.SlashToken || t === K.SlashEqualsToken) && !endsOperand(previous)) t = scanner.reScanSlashToken();
    if (open.length > deepest) deepest = open.length;
    previous = t;
  }
  return deepest;
}

/** Whether a token can end an operand (a `/` after it divides). */
function endsOperand(kind: ts.SyntaxKind): boolean {
  const K = ts.SyntaxKind;
  return kind === K.CloseParenToken || kind === K.CloseBracketToken || kind === K.CloseBraceToken || kind === K.Identifier
    || kind === K.NumericLiteral || kind === K.BigIntLiteral || kind === K.StringLiteral || kind === K.NoSubstitutionTemplateLiteral
    || kind === K.TemplateTail || kind === K.RegularExpressionLiteral || kind === K.ThisKeyword || kind === K.SuperKeyword
    || kind === K.TrueKeyword || kind === K.FalseKeyword || kind === K.NullKeyword || kind === K.PlusPlusToken || kind === K.MinusMinusToken;
}

/** The parser's syntax errors of a source file: how many, and the first in the text (a text too deep to load: that, whatever the parser said). */
function verdictOf(sf: ts.SourceFile, lines: () => LineMap, text: string): SyntaxVerdict {
  const deep = tooDeepToLoad(text);
  if (deep) return deep;
  const parseDiagnostics: readonly ts.DiagnosticWithLocation[] = (sf as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  if (parseDiagnostics.length === 0) return PARSES;
  // The first in the text, not the first reported: the scanner's errors met while the parser looks
  // ahead (an unterminated template six lines on) are reported before the parser's own earlier ones.
  let d = parseDiagnostics[0];
  for (let i = 1; i < parseDiagnostics.length; i++) if (parseDiagnostics[i].start < d.start) d = parseDiagnostics[i];
  return { errors: parseDiagnostics.length, first: { message: ts.flattenDiagnosticMessageText(d.messageText, "\n"), range: lines().range(d.start, d.start + (d.length || 0)) } };
}

/** The verdict of a text that parses: one object for all (most files). */
export const PARSES: SyntaxVerdict = Object.freeze({ errors: 0 });

/**
 * Whether a text nested deeper than the parser's stack, but less than `LOAD_DEPTH`, parses is not
 * known: no error is claimed (Node may load it: TypeScript's parser runs out of stack before V8's
 * does for some shapes, and in some hosts), as nothing else is read of it.
 */
export const NOT_KNOWN: SyntaxVerdict = Object.freeze({ errors: 0 });

/** What is known of a text the parser ran out of stack on: that it does not load (`LOAD_DEPTH`), or nothing. */
function tooDeepVerdict(text: string): SyntaxVerdict {
  return tooDeepToLoad(text) ?? NOT_KNOWN;
}

/**
 * Whether a text parses (the same verdict as its facts' `syntaxErrors` and `firstSyntaxError`):
 * vouched for without a tree where `vouch.ts` can, else parsed, the tree dropped at once. Never
 * throws on bad code.
 */
export function syntaxVerdict(fileName: string, text: string): SyntaxVerdict {
  return vouchesFor(fileName, text) ? PARSES : parsedVerdict(fileName, text);
}

/** `syntaxVerdict` by TypeScript's parse alone: for a text `vouch.ts` was asked of already, and was not sure. */
export function parsedVerdict(fileName: string, text: string): SyntaxVerdict {
  if (tooDeepToParse(text)) return tooDeepVerdict(text);
  try {
    return verdictOf(ts.createSourceFile(fileName, text, PARSE_OPTIONS, false, scriptKind(fileName)), () => new LineMap(text), text);
  } catch (e) {
    if (!(e instanceof RangeError && /call stack/i.test(e.message))) throw e;
    return tooDeepVerdict(text);
  }
}

/**
 * `syntaxVerdict` and the file's workflows (`readWorkflows`) from one parse: what a host that lists
 * workflows (the server's symbol search) keeps of a workflow source it reads without a tree, so
 * that no second parse reads them later. The same workflows as its full facts', the tree dropped
 * at once; a text nested too deeply holds none, as its facts do. Vouched for without a tree where
 * `vouch.ts` can. Never throws on bad code.
 */
export function syntaxAndWorkflows(fileName: string, text: string): { verdict: SyntaxVerdict; workflows: WorkflowFact[] } {
  const vouched = vouch(fileName, text);
  if (vouched) return { verdict: PARSES, workflows: vouched };
  if (tooDeepToParse(text)) return { verdict: tooDeepVerdict(text), workflows: [] };
  try {
    const sf = ts.createSourceFile(fileName, text, PARSE_OPTIONS, false, scriptKind(fileName));
    let lines: LineMap | undefined;
    const linesOf = () => (lines ??= new LineMap(text));
    const r = (node: ts.Node): Range => linesOf().range(node.getStart(sf), node.end);
    let consts: Map<string, TopConst> | undefined;
    const workflows = readWorkflows(sf, r, constsExportedByNameOf(sf, () => (consts ??= topConstsOf(sf))));
    return { verdict: verdictOf(sf, linesOf, text), workflows };
  } catch (e) {
    if (!(e instanceof RangeError && /call stack/i.test(e.message))) throw e;
    return { verdict: tooDeepVerdict(text), workflows: [] };
  }
}

/**
 * Reads a file's facts. Never throws on bad code: a text nested deeper than the parser's stack
 * (`((((…1…))))` a thousand deep) is read as holding nothing, with `unread` saying why (and, nested
 * `LOAD_DEPTH` deep, one syntax error: it does not load).
 */
export function readFacts(fileName: string, text: string, options: Options = {}): FileFacts {
  if (tooDeepToParse(text)) return tooDeepFacts(tooDeepVerdict(text));
  try {
    return readTreeFacts(fileName, text, options);
  } catch (e) {
    if (!(e instanceof RangeError && /call stack/i.test(e.message))) throw e;
    return tooDeepFacts(tooDeepVerdict(text));
  }
}

/** The facts of a text the parser ran out of stack on: nothing, with what is known of its syntax. */
export function tooDeepFacts(verdict: SyntaxVerdict): FileFacts {
  const facts: FileFacts = {
    unread: TOO_DEEP, syntaxErrors: verdict.errors,
    imports: [], bindings: new Map(), locals: new Map(), exports: new Map(), starExports: [], specs: [],
    declarations: [], collections: [], opRefs: [], secretCalls: [], workflows: [],
  };
  if (verdict.first) facts.firstSyntaxError = verdict.first;
  return facts;
}

export function readTreeFacts(fileName: string, text: string, options: Options): FileFacts {
  // JSDoc is never read: skipping it makes parsing cheaper.
  const sf = ts.createSourceFile(fileName, text, PARSE_OPTIONS, false, scriptKind(fileName));
  const lines = new LineMap(text);
  const r = (node: ts.Node): Range => lines.range(node.getStart(sf), node.end);
  const facts: FileFacts = {
    syntaxErrors: 0, imports: [], bindings: new Map(), locals: new Map(), exports: new Map(), starExports: [], specs: [],
    declarations: [], collections: [], opRefs: [], secretCalls: [], workflows: [],
  };
  const verdict = verdictOf(sf, () => lines, text);
  facts.syntaxErrors = verdict.errors;
  if (verdict.first) facts.firstSyntaxError = verdict.first;
  const specifierNodes = new Set<ts.Node>();
  /** The file's top-level consts by name, with their statement (built on first use). */
  let topConsts: Map<string, TopConst> | undefined;
  const constsByName = (): Map<string, TopConst> => (topConsts ??= topConstsOf(sf));
  const constsExportedByName = (): ExportedByName => constsExportedByNameOf(sf, constsByName);
  const nameText = (n: ts.PropertyName | ts.ModuleExportName): string | undefined =>
    ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n) || ts.isPrivateIdentifier(n) ? n.text : undefined;

  // ---- Imports, exports and top-level bindings -------------------------------------------------
  const addImport = (spec: ts.StringLiteralLike, names: ImportedName[]) => {
    specifierNodes.add(spec);
    facts.imports.push({ specifier: spec.text, range: r(spec), names });
  };

  const { specOfCall, throughConsts } = specReader({ r, facts, nameText, constsByName });

  /** What an expression holds, as a Ref. */
  const refOf = (e: ts.Expression): Ref => {
    while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
    if (ts.isIdentifier(e)) return { kind: "local", name: e.text };
    if (ts.isPropertyAccessExpression(e)) return { kind: "member", base: refOf(e.expression), member: e.name.text };
    // `const machine = exports.machine = …` (Babel): what is assigned.
    if (isAssignment(e)) return refOf(e.right);
    if (ts.isCallExpression(e)) {
      const spec = specOfCall(e);
      if (spec !== undefined) return { kind: "spec", spec };
      const req = requiredModule(e);
      if (req !== undefined) return { kind: "import", source: req, imported: "*" };
      return { kind: "other" };
    }
    if (ts.isObjectLiteralExpression(e)) {
      const props = new Map<string, Ref>();
      const spreads: Ref[] = [];
      let open = false;
      for (const p of e.properties) {
        if (ts.isPropertyAssignment(p)) { const k = nameText(p.name); if (k !== undefined) props.set(k, refOf(p.initializer)); else open = true; }
        else if (ts.isShorthandPropertyAssignment(p)) props.set(p.name.text, { kind: "local", name: p.name.text });
        else if (ts.isSpreadAssignment(p)) spreads.push(refOf(p.expression));
        else if (p.name && nameText(p.name) !== undefined) props.set(nameText(p.name)!, { kind: "other" }); // a method or an accessor
        else open = true;
      }
      return { kind: "object", props, ...(spreads.length > 0 ? { spreads } : {}), ...(open ? { open } : {}) };
    }
    return { kind: "other" };
  };

  const requireSpecifier = (call: ts.CallExpression): string | undefined =>
    ts.isIdentifier(call.expression) && call.expression.text === "require" && call.arguments.length === 1 && ts.isStringLiteralLike(call.arguments[0])
      ? call.arguments[0].text : undefined;

  /**
   * The module a `require("m")` gives, alone or wrapped by the helper a compiler puts around it for
   * an ES namespace or default import (tsc's `__importStar`, `__importDefault`; esbuild's
   * `__toESM(require("m"), 1)`; SWC's `_interop_require_wildcard`; Babel's
   * `_interopRequireDefault`): read as the namespace, whose `.default` is the default export.
   */
  const requiredModule = (call: ts.CallExpression): string | undefined => {
    const own = requireSpecifier(call);
    if (own !== undefined || call.arguments.length === 0 || call.arguments.length > 2) return own;
    const [inner, flag] = call.arguments.map(unwrap);
    if (flag !== undefined && !(ts.isNumericLiteral(flag) || flag.kind === ts.SyntaxKind.TrueKeyword || flag.kind === ts.SyntaxKind.FalseKeyword)) return undefined;
    return ts.isCallExpression(inner) ? requireSpecifier(inner) : undefined;
  };

  const bindLocal = (name: string, ref: Ref) => { facts.locals.set(name, ref); };

  /** The objects a CommonJS module fills and makes its `module.exports` (esbuild's `x_exports`). */
  const exportAliases = text.includes("module.exports") || EXPORT_EQUALS.test(text) ? commonJsAliases(sf) : new Set<string>();
  /** What `module.exports` holds besides the names read: spreads of objects, or something unknown (`moreUnknown`). */
  const moreExports: Ref[] = [];
  let moreUnknown = false;
  const unknownMore = () => { if (!moreUnknown) { moreUnknown = true; moreExports.push({ kind: "unknown" }); } };
  let topValues: Map<string, ts.Expression | null> | undefined;

  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteralLike(st.moduleSpecifier)) {
      const source = st.moduleSpecifier.text;
      const clause = st.importClause;
      const names: ImportedName[] = [];
      const typeOnly = !!clause?.isTypeOnly;
      const bind = (local: string, imported: string, range: Range, elementTypeOnly: boolean, element?: Range) => {
        names.push({ imported, range });
        facts.bindings.set(local, { source, imported, typeOnly: typeOnly || elementTypeOnly, ...(element ? { element } : {}) });
      };
      if (clause?.name) bind(clause.name.text, "default", r(clause.name), false);
      const nb = clause?.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) bind(nb.name.text, "*", r(nb.name), false);
      if (nb && ts.isNamedImports(nb)) {
        for (const el of nb.elements) {
          const imported = el.propertyName ? nameText(el.propertyName) ?? el.name.text : el.name.text;
          bind(el.name.text, imported, r(el.propertyName ?? el.name), el.isTypeOnly, lines.range((el.propertyName ?? el.name).getStart(sf), el.name.end));
        }
      }
      addImport(st.moduleSpecifier, names);
      continue;
    }
    if (ts.isExportDeclaration(st)) {
      const source = st.moduleSpecifier && ts.isStringLiteralLike(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      const names: ImportedName[] = [];
      if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          const local = el.propertyName ? nameText(el.propertyName) ?? el.name.getText(sf) : nameText(el.name) ?? "";
          const exported = nameText(el.name) ?? local;
          names.push({ imported: local, range: r(el.propertyName ?? el.name) });
          facts.exports.set(exported, source !== undefined ? { kind: "import", source, imported: local } : { kind: "local", name: local });
        }
      } else if (st.exportClause && ts.isNamespaceExport(st.exportClause) && source !== undefined) {
        const exported = nameText(st.exportClause.name) ?? "";
        names.push({ imported: "*", range: r(st.exportClause.name) });
        facts.exports.set(exported, { kind: "import", source, imported: "*" });
      } else if (!st.exportClause && source !== undefined) {
        facts.starExports.push(source);
        names.push({ imported: "*", range: r(st) });
      }
      if (source !== undefined) addImport(st.moduleSpecifier as ts.StringLiteral, names);
      continue;
    }
    if (ts.isImportEqualsDeclaration(st)) {
      const ref = st.moduleReference;
      if (ts.isExternalModuleReference(ref) && ts.isStringLiteralLike(ref.expression)) {
        facts.bindings.set(st.name.text, { source: ref.expression.text, imported: "*", typeOnly: st.isTypeOnly });
        addImport(ref.expression, [{ imported: "*", range: r(st.name) }]);
      }
      continue;
    }
    const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword);
    const isDefault = hasModifier(st, ts.SyntaxKind.DefaultKeyword);
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) {
          const ref = d.initializer ? refOf(d.initializer) : { kind: "other" as const };
          bindLocal(d.name.text, ref);
          if (d.initializer && isAssignment(unwrap(d.initializer))) readAssignment(unwrap(d.initializer) as Assignment);
          if (exportAliases.has(d.name.text) && d.initializer) exportsFrom(refOf(d.initializer));
          if (exported) facts.exports.set(d.name.text, { kind: "local", name: d.name.text });
          if (d.initializer && ts.isCallExpression(unwrap(d.initializer))) {
            const req = requiredModule(unwrap(d.initializer) as ts.CallExpression);
            if (req !== undefined) facts.bindings.set(d.name.text, { source: req, imported: "*", typeOnly: false });
          }
          // A declaration is an exported *const* (A5): `export let web = vm(…)` declares nothing.
          if (exported && d.initializer && st.declarationList.flags & ts.NodeFlags.Const) readDeclaration(d.name, d.initializer, st);
        } else if (ts.isObjectBindingPattern(d.name) && d.initializer && ts.isCallExpression(unwrap(d.initializer))) {
          // const { defineResource, x: y } = require("...")
          const req = requireSpecifier(unwrap(d.initializer) as ts.CallExpression);
          if (req !== undefined) {
            for (const el of d.name.elements) {
              if (!ts.isIdentifier(el.name)) continue;
              const imported = el.propertyName ? nameText(el.propertyName) ?? el.name.text : el.name.text;
              facts.bindings.set(el.name.text, { source: req, imported, typeOnly: false });
            }
          }
        }
      }
      continue;
    }
    if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) {
      if (st.name) bindLocal(st.name.text, { kind: "other" });
      if (exported) {
        const name = isDefault ? "default" : st.name?.text;
        if (name) facts.exports.set(name, { kind: "other" });
      }
      continue;
    }
    if (ts.isExportAssignment(st)) {
      // TypeScript's `export = …` is compiled to `module.exports = …`, and read as that is.
      if (st.isExportEquals) moduleExportsAssigned(st.expression);
      else facts.exports.set("default", refOf(st.expression));
      if (options.isConfig && !st.isExportEquals) facts.config = readConfig(st.expression);
      continue;
    }
    if (ts.isExpressionStatement(st) && ts.isCallExpression(st.expression)) {
      readCompiledExport(st.expression);
      continue;
    }
    if (ts.isExpressionStatement(st) && isAssignment(st.expression)) {
      // CommonJS: exports.x = ..., module.exports.x = ..., module.exports = { ... }, chains of them
      readAssignment(st.expression);
      continue;
    }
    if (ts.isExpressionStatement(st)) readExportNames(st.expression);
  }
  // What else `module.exports` holds (a spread, what a call not read here put in it): the whole, read as an object of them.
  if (moreExports.length > 0) {
    const whole = facts.exports.get("module.exports");
    facts.exports.set("module.exports", { kind: "object", props: new Map(), spreads: whole ? [whole, ...moreExports] : moreExports });
  }

  /** An object literal that is `module.exports`: its properties are exports, its spreads (and a computed key: unknown) more of them. */
  function exportsFrom(ref: Ref): void {
    if (ref.kind !== "object") return;
    for (const [k, v] of ref.props) facts.exports.set(k, v);
    if (ref.spreads) for (const spread of ref.spreads) moreExports.push(spread);
    if (ref.open) unknownMore();
  }

  /**
   * An assignment statement (or a const's initializer): `exports.x = …`, `module.exports.x = …`,
   * `module.exports = …`, and chains of them (`exports.a = exports.b = void 0`, Babel's
   * `const a = exports.a = …`), each target given what the last right-hand side holds.
   */
  function readAssignment(e: Assignment): void {
    const targets: ts.Expression[] = [];
    let value: ts.Expression = e;
    while (isAssignment(value)) { targets.push(unwrap(value.left)); value = unwrap(value.right); }
    for (const left of targets) {
      if (ts.isElementAccessExpression(left) && isExportsObject(left.expression)) {
        // `exports["x"] = …`; a key not written as a literal may be any name.
        const key = unwrap(left.argumentExpression);
        if (ts.isStringLiteralLike(key)) facts.exports.set(key.text, refOf(value));
        else unknownMore();
      }
      if (!ts.isPropertyAccessExpression(left)) continue;
      if (ts.isIdentifier(left.expression) && left.expression.text === "module" && left.name.text === "exports") moduleExportsAssigned(value);
      else if (isExportsObject(left.expression)) facts.exports.set(left.name.text, refOf(value));
    }
  }

  /**
   * `module.exports = …`: an object literal's properties are the exports; an object the module
   * fills (`exportAliases`: `api`, or esbuild's `__toCommonJS(x_exports)`) is read where it is
   * filled; anything else is the whole `module.exports`, unknown when this reading cannot follow
   * it (a call, a value assigned elsewhere): then a name asked of the module is unknown, not absent.
   */
  function moduleExportsAssigned(e: ts.Expression): void {
    e = unwrap(e);
    const whole = ts.isCallExpression(e) && e.arguments.length === 1 ? unwrap(e.arguments[0]) : e;
    if (ts.isIdentifier(whole) && exportAliases.has(whole.text)) return;
    const ref = refOf(e);
    if (ref.kind === "object") exportsFrom(ref);
    else facts.exports.set("module.exports", unreadable(e, 0) ? { kind: "unknown" } : ref);
  }

  /**
   * Whether what an expression holds cannot be followed from here: a call (not `require` nor
   * `defineResource`), a name assigned nowhere this reading sees, or a computed value. A function,
   * a class or a literal holds no resource type (it is read, as `other`).
   */
  function unreadable(e: ts.Expression, depth: number): boolean {
    e = unwrap(e);
    if (depth > MAX_FOLLOW) return true;
    if (ts.isCallExpression(e)) return specOfCall(e) === undefined && requiredModule(e) === undefined;
    if (ts.isIdentifier(e)) {
      if (e.text === "undefined" || e.text === "exports" || facts.bindings.has(e.text)) return false;
      const init = topLevelValues().get(e.text);
      return init === undefined ? true : init === null ? false : unreadable(init, depth + 1);
    }
    if (ts.isPropertyAccessExpression(e)) return unreadable(e.expression, depth + 1);
    if (isAssignment(e)) return unreadable(e.right, depth + 1);
    return !(ts.isObjectLiteralExpression(e) || ts.isFunctionExpression(e) || ts.isArrowFunction(e) || ts.isClassExpression(e) || ts.isArrayLiteralExpression(e)
      || ts.isLiteralExpression(e) || ts.isTemplateExpression(e) || ts.isVoidExpression(e) || ts.isPrefixUnaryExpression(e)
      || e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword || e.kind === ts.SyntaxKind.NullKeyword);
  }

  /** Top-level names → their initializer (`null`: a function or a class). Built on first use (`topValues`). */
  function topLevelValues(): Map<string, ts.Expression | null> {
    if (topValues) return topValues;
    topValues = new Map();
    for (const st of sf.statements) {
      if (ts.isVariableStatement(st)) { for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) topValues.set(d.name.text, d.initializer); }
      else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) topValues.set(st.name.text, null);
    }
    return topValues;
  }

  /**
   * esbuild's note of a CommonJS bundle's export names for Node's ES module loader,
   * `0 && (module.exports = { a, b, ...require("m") })`, which never runs: names only. A name it
   * gives that was not read elsewhere is an export of an unknown value; a spread of a `require` is
   * an `export *`.
   */
  function readExportNames(e: ts.Expression): void {
    e = unwrap(e);
    if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.AmpersandAmpersandToken) return;
    const zero = unwrap(e.left);
    if (!ts.isNumericLiteral(zero) || zero.text !== "0") return;
    const assigned = unwrap(e.right);
    if (!isAssignment(assigned) || !isModuleExportsNode(assigned.left)) return;
    const names = unwrap(assigned.right);
    if (!ts.isObjectLiteralExpression(names)) return;
    for (const p of names.properties) {
      if (ts.isSpreadAssignment(p)) {
        const required = unwrap(p.expression);
        const source = ts.isCallExpression(required) ? requireSpecifier(required) : undefined;
        if (source !== undefined) { if (!facts.starExports.includes(source)) facts.starExports.push(source); }
        else unknownMore();
        continue;
      }
      const name = p.name && nameText(p.name);
      if (name !== undefined && !facts.exports.has(name)) facts.exports.set(name, { kind: "unknown" });
    }
  }

  /**
   * The exports of ES modules compiled to CommonJS, a published connector package's usual form
   * (A4), read by what each helper is given rather than by its name (a minified bundle renames them):
   *   - tsc (tslib, Babel alike): `Object.defineProperty(exports, "x", { enumerable: true, get:
   *     function () { return m.x; } })` (`export { x } from "m"`) and `__exportStar(require("m"),
   *     exports)` (`export * from "m"`; SWC's `_export_star` alike);
   *   - esbuild (tsup): `__export(x_exports, { a: () => a })` of the object that becomes
   *     `module.exports` (`exportAliases`), and `__reExport(x_exports, require("m"), module.exports)`;
   *   - SWC: `_export(exports, { a: function() { return a; } })`, or `{ get a() { return a; } }`;
   *   - Babel: `Object.keys(_m).forEach(function (key) { … exports … })` of `var _m = require("m")`;
   *   - by hand: `Object.assign(exports, { a, b })`, read as `module.exports = { a, b }` is.
   * Any other call given an exports object first, and something more, may put anything in it: what
   * else it holds is unknown (`unknownMore`).
   */
  function readCompiledExport(call: ts.CallExpression): void {
    let callee = unwrap(call.expression);
    // `(0, tslib_1.__exportStar)(…)`
    if (ts.isBinaryExpression(callee) && callee.operatorToken.kind === ts.SyntaxKind.CommaToken) callee = unwrap(callee.right);
    const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
    const [first, second, third] = call.arguments;
    const requiredBy = (e: ts.Expression | undefined): string | undefined => {
      const required = e && unwrap(e);
      return required && ts.isCallExpression(required) ? requireSpecifier(required) : undefined;
    };
    if (name === "defineProperty" && ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "Object") {
      if (!first || !isExportsObject(first) || !second || !ts.isStringLiteralLike(second) || second.text === "__esModule") return;
      const descriptor = third && unwrap(third);
      if (!descriptor || !ts.isObjectLiteralExpression(descriptor)) return;
      facts.exports.set(second.text, descriptorValue(descriptor));
      return;
    }
    // `export * from "m"`: tsc's and SWC's `(require("m"), exports)`, tsc's old `__export(require("m"))`, esbuild's `(x_exports, require("m"), module.exports)`.
    const starOf = requiredBy(first) !== undefined && (second === undefined ? name === "__exportStar" || name === "__export" : isExportsObject(second)) ? requiredBy(first)
      : first && isExportsObject(first) && (third === undefined || isModuleExportsNode(third)) ? requiredBy(second) : undefined;
    if (starOf !== undefined) { facts.starExports.push(starOf); return; }
    // esbuild's `__export(x_exports, { … })`, SWC's `_export(exports, { … })`: each property a getter.
    const getters = second && unwrap(second);
    if (first && isExportsObject(first) && getters && ts.isObjectLiteralExpression(getters) && third === undefined && !(name === "assign" || name === "defineProperties")) {
      for (const p of getters.properties) {
        const key = p.name && nameText(p.name);
        if (key === undefined) { unknownMore(); continue; }
        facts.exports.set(key, getterValue(p) ?? { kind: "unknown" });
      }
      return;
    }
    // By hand: `Object.assign(exports, { machine, other }, …)` (or `module.exports`): an object
    // literal's properties are exports, as `module.exports = { … }`'s are; anything else given is
    // a spread of what it holds (`require("./more")`: its exports; a call: unknown).
    if (name === "assign" && ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "Object" && first && isExportsObject(first)) {
      for (const arg of call.arguments.slice(1)) {
        const ref = ts.isSpreadElement(arg) ? undefined : refOf(arg);
        if (ref === undefined) unknownMore();
        else if (ref.kind === "object") exportsFrom(ref);
        else moreExports.push(ref);
      }
      return;
    }
    // Babel: `Object.keys(_m).forEach(function (key) { … exports[key] … })`
    if (name === "forEach" && ts.isPropertyAccessExpression(callee)) {
      const keys = unwrap(callee.expression);
      const of = ts.isCallExpression(keys) && keys.arguments.length === 1 ? unwrap(keys.arguments[0]) : undefined;
      const isKeys = ts.isCallExpression(keys) && ts.isPropertyAccessExpression(keys.expression) && keys.expression.name.text === "keys" && ts.isIdentifier(keys.expression.expression) && keys.expression.expression.text === "Object";
      const binding = of && ts.isIdentifier(of) ? facts.bindings.get(of.text) : undefined;
      if (isKeys && binding && binding.imported === "*" && first && mentionsExports(first)) { facts.starExports.push(binding.source); return; }
    }
    if (first && second && isExportsObject(first)) unknownMore();
  }

  /** Whether `exports` is named inside a node (Babel's callback that copies a module's keys onto it). */
  function mentionsExports(node: ts.Node): boolean {
    return ts.isIdentifier(node) ? node.text === "exports" : !!ts.forEachChild(node, (c) => mentionsExports(c) || undefined);
  }

  /** `exports`, `module.exports`, or the object a bundle makes `module.exports` (`exportAliases`). */
  function isExportsObject(e: ts.Expression): boolean {
    e = unwrap(e);
    if (ts.isIdentifier(e)) return e.text === "exports" || exportAliases.has(e.text);
    return isModuleExportsNode(e);
  }

  /** What a getter returns: `a: () => x`, `a: function () { return x; }`, `get a() { return x; }`, `a() { return x; }`; undefined for anything else. */
  function getterValue(p: ts.ObjectLiteralElementLike): Ref | undefined {
    const fn = ts.isPropertyAssignment(p) ? unwrap(p.initializer) : p;
    if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return refOf(fn.body);
    if ((ts.isFunctionExpression(fn) || ts.isArrowFunction(fn) || ts.isMethodDeclaration(fn) || ts.isGetAccessorDeclaration(fn)) && fn.body && ts.isBlock(fn.body)) {
      const only = fn.body.statements.length === 1 ? fn.body.statements[0] : undefined;
      if (only && ts.isReturnStatement(only) && only.expression) return refOf(only.expression);
    }
    return undefined;
  }

  /** What a property descriptor's `value`, or its getter's one returned expression, holds. */
  function descriptorValue(descriptor: ts.ObjectLiteralExpression): Ref {
    for (const p of descriptor.properties) {
      const key = p.name && nameText(p.name);
      if (key === "value" && ts.isPropertyAssignment(p)) return refOf(p.initializer);
      if (key === "get") return getterValue(p) ?? { kind: "other" };
    }
    return { kind: "other" };
  }

  function readDeclaration(name: ts.Identifier, init: ts.Expression, statement: ts.Node) {
    const call = unwrap(init);
    if (!ts.isCallExpression(call)) return;
    const callee = call.expression;
    // From the last member back to the identifier the chain starts with.
    const members: { name: string; range: Range; quoted?: true }[] = [];
    let cur = unwrap(callee);
    for (;;) {
      if (ts.isPropertyAccessExpression(cur) && ts.isIdentifier(cur.name)) members.push({ name: cur.name.text, range: r(cur.name) });
      else if (ts.isElementAccessExpression(cur) && ts.isStringLiteralLike(cur.argumentExpression)) members.push({ name: cur.argumentExpression.text, range: r(cur.argumentExpression), quoted: true });
      else break;
      cur = unwrap(cur.expression);
    }
    if (!ts.isIdentifier(cur)) return;
    const base = cur.text;
    const member = members[0]?.name, memberRange = members[0]?.range;
    const via = members.length > 1 ? members.slice(1).reverse().map((m) => m.name) : undefined;
    // (`{ … } as const`, `({ … })`, `{ … } satisfies T`: the same desired object.)
    const first = call.arguments[0] && unwrap(call.arguments[0]);
    let desired: DeclarationFact["desired"];
    if (first && ts.isObjectLiteralExpression(first)) {
      const keys: DesiredKey[] = [];
      let hasSpread = false;
      for (const p of first.properties) {
        if (ts.isSpreadAssignment(p)) { hasSpread = true; continue; }
        if (!p.name) continue;
        // (`["name"]: …` is the key `name`, as the config's bindings read one.)
        const computed = ts.isComputedPropertyName(p.name) ? unwrap(p.name.expression) : undefined;
        const key = computed === undefined ? nameText(p.name) : ts.isStringLiteralLike(computed) ? computed.text : undefined;
        if (key === undefined) { hasSpread = true; continue; } // a computed key of no literal: fields cannot be checked
        keys.push({ name: key, range: r(p.name), ...(ts.isShorthandPropertyAssignment(p) ? { shorthand: true as const } : {}) });
      }
      desired = { keys, hasSpread, range: r(first) };
    } else if (call.arguments.length === 0) {
      desired = { keys: [], hasSpread: false, range: r(call) }; // `vm()`: every required field is missing
    }
    facts.declarations.push({ exportName: name.text, nameRange: r(name), callee: { base, member, range: r(callee), memberRange, via, ...(members[0]?.quoted ? { memberQuoted: true as const } : {}) }, desired, range: r(statement) });
  }

  function readConfig(e: ts.Expression): ConfigFact {
    const config: ConfigFact = {};
    let obj = throughConsts(unwrap(e))!;
    if (ts.isCallExpression(obj) && obj.arguments[0]) obj = throughConsts(unwrap(obj.arguments[0]))!;
    if (!ts.isObjectLiteralExpression(obj)) return { secretBindings: null };
    const nameProp = throughConsts(prop(obj, "name"));
    if (nameProp && ts.isStringLiteralLike(nameProp)) config.name = nameProp.text;
    const secrets = throughConsts(prop(obj, "secrets"));
    if (secrets === undefined) return config;
    if (!ts.isObjectLiteralExpression(secrets)) { config.secretBindings = null; return config; }
    const bindings = throughConsts(prop(secrets, "bindings"));
    if (bindings === undefined) return config;
    if (!ts.isObjectLiteralExpression(bindings)) { config.secretBindings = null; return config; }
    config.secretBindings = [];
    for (const p of bindings.properties) {
      // A spread may bind any name, and override what precedes it: read on from there.
      if (ts.isSpreadAssignment(p)) { config.secretBindingsOpen = true; config.secretBindings = []; continue; }
      // `{ CLOUD_KEY }` binds CLOUD_KEY to the const of that name; `["KEY"]: …` binds KEY.
      let key: ts.PropertyName, value: ts.Expression | undefined;
      if (ts.isShorthandPropertyAssignment(p)) { key = p.name; value = throughConsts(p.name); }
      else if (ts.isPropertyAssignment(p)) { key = p.name; value = throughConsts(unwrap(p.initializer)); }
      else continue;
      const name = ts.isComputedPropertyName(key) ? (ts.isStringLiteralLike(unwrap(key.expression)) ? (unwrap(key.expression) as ts.StringLiteralLike).text : undefined) : nameText(key);
      // A computed name that cannot be read binds who knows what, as a spread does.
      if (name === undefined) { config.secretBindingsOpen = true; config.secretBindings = []; continue; }
      const b: SecretBindingFact = { name, nameRange: r(key) };
      const v = value;
      if (v !== undefined && ts.isObjectLiteralExpression(v)) {
        const env = throughConsts(prop(v, "env"));
        // (`env: undefined` or `env: null` gives no variable: no env.)
        if (env !== undefined && !(env.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(env) && env.text === "undefined") || ts.isVoidExpression(env))) {
          if (ts.isStringLiteralLike(env)) b.env = { value: env.text, range: r(env) };
          else b.envUnknown = true;
        }
        const bootstrap = prop(v, "bootstrap");
        if (bootstrap !== undefined) b.bootstrap = literalTruth(bootstrap) === true;
        const host = prop(v, "host");
        if (host !== undefined) b.host = literalTruth(host);
      } else {
        b.envUnknown = true;
      }
      // A name written twice is one binding, the last (as the object holds it).
      const twice = config.secretBindings.findIndex((x) => x.name === name);
      if (twice >= 0) config.secretBindings.splice(twice, 1);
      config.secretBindings.push(b);
    }
    return config;
  }

  // `const web = vm({…}); export { web }` (or `export { web as api }`) declares as `export const` does;
  // the same for a collection (below).
  const exportedByName = constsExportedByName();
  for (const { local, exported } of exportedByName) readDeclaration(exported, local.init, local.statement);

  readCalls({ sf, text, r, facts, specifierNodes, nameText, constsByName, addImport, exportedByName, specOfCall });
  // What is kept of the text's strings stands alone: the text itself can go (intern.ts).
  return internAll(facts);
}
