/**
 * A data file's facts (A4–A8: `resources/*.ts`) without TypeScript's parser, where its text has the
 * shape most data files have: imports, top-level `const`s whose value is a literal, a template, a
 * name (`a.b`), or a call of one (`vm({ … })`, `cloud.bucket({ … })`, `secret("KEY")`,
 * `collection({ … })`) whose arguments are plain values (calls of names among them), and `void
 * name;` statements. A data file is read whole by every check, and its parse and tree walk were a
 * fifth of a check's time (issue 23), ten times a light file's. The reading runs over `vouch.ts`'s tokens once it is sure the text parses, and refuses
 * anything else (a `defineResource` call, a function, a spread, a type annotation, an escape in a
 * string…): the caller reads those from the tree (`readFacts`), as before. Where it answers, its
 * facts are the tree's, field for field: `test/rules/light-data.test.ts` holds the two readings to
 * each other on corpora and on mutated texts.
 */
import { isFrameworkModule } from "./company.ts";
import { heldOpId, type CollectionFact, type DeclarationFact, type DesiredKey, type FileFacts, type ImportedName, type Ref } from "./fact-types.ts";
import { readFacts } from "./facts-tree.ts";
import { intern } from "./intern.ts";
import { LineMap } from "./text.ts";
import type { Range } from "./types.ts";
import { isIdentifierCode, PUNCT, readVouched, TOKEN, WORD, type VouchedTokens } from "./vouch.ts";

/** A data file's facts: read from its tokens where its shape allows (see the header), else from its syntax tree. */
export function readDataFacts(fileName: string, text: string): FileFacts {
  let facts: FileFacts | undefined;
  try {
    facts = readDataFactsFromTokens(fileName, text);
  } catch {
    facts = undefined; // a fault of its own: the tree reads the file, as it would without this
  }
  return facts ?? readFacts(fileName, text);
}

/** The reading from tokens alone: undefined where it refuses; a fault is thrown (what its tests call). */
export function readDataFactsFromTokens(fileName: string, text: string): FileFacts | undefined {
  return readVouched(fileName, text, (tokens) => new DataReader(tokens).read());
}

/** Thrown where the text leaves the shape read here; caught by `read`. */
const REFUSE = new Error("not a shape read from tokens");

/** Local names and imported names that make an import's reading ambiguous here: left to the tree. */
const AMBIGUOUS_NAMES = new Set(["type", "as", "from"]);

/** Calls whose facts only the tree reads (a spec; a module loaded). */
const TREE_CALLS = new Set(["defineResource", "require"]);

/** How deep object and array literals may nest in a value read here. */
const MAX_DEPTH = 16;

/** A property of an object literal: its key's tokens, and its value's (`value` is the key's own token for a shorthand). */
interface Property { key: string; keyToken: number; first: number; last: number; value: Value; shorthand?: true }
/** A value read here: a string literal (its token), an object literal, or anything else plain. */
type Value = { kind: "string"; token: number } | { kind: "object"; first: number; last: number; properties: Property[] } | { kind: "other" };
/** `callee(arguments)`: the callee's name tokens (an identifier, then each `.name`), its first argument (none: `callee()`), and the call's last token. */
interface Call { names: number[]; argument: Value | undefined; last: number }
/** The call that is an exported const's value: the const's name token, and its whole statement. */
interface Exported { name: number; statement: Range }

class DataReader {
  private p = 0;
  private readonly lines: LineMap;
  private readonly facts: FileFacts = {
    syntaxErrors: 0, imports: [], bindings: new Map(), locals: new Map(), exports: new Map(), starExports: [], specs: [],
    declarations: [], collections: [], opRefs: [], secretCalls: [], workflows: [],
  };
  /** String literals read, in text order: operation references unless they are an import's specifier. */
  private readonly strings: number[] = [];
  /** Every call read, in the order of their callees in the text (a call before those in its arguments). */
  private readonly calls: { call: Call; exported?: Exported }[] = [];
  private readonly kinds: Uint8Array;
  private readonly codes: Int32Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly breaks: Uint8Array;
  private readonly text: string;

  constructor(tokens: VouchedTokens) {
    ({ kinds: this.kinds, codes: this.codes, starts: this.starts, ends: this.ends, breaks: this.breaks, text: this.text } = tokens);
    this.lines = new LineMap(tokens.text);
  }

  read(): FileFacts | undefined {
    try {
      while (this.kinds[this.p] !== TOKEN.EOF) {
        if (this.isWord(WORD.IMPORT)) { this.importDeclaration(); continue; }
        // `void name;` (what keeps an import used): nothing to the tree's readers.
        if (this.isWord(WORD.VOID)) { this.p++; this.chain(); this.statementEnd(); continue; }
        const first = this.p;
        const exported = this.isWord(WORD.EXPORT);
        if (exported) this.p++;
        if (!this.isWord(WORD.CONST)) throw REFUSE;
        this.p++;
        const name = this.identifier();
        this.expectPunct(PUNCT.ASSIGN);
        const callAt = this.calls.length;
        const { call, ref } = this.initializer();
        const last = this.statementEnd();
        const local = this.word(name);
        this.facts.locals.set(local, ref);
        if (exported) this.facts.exports.set(local, { kind: "local", name: local });
        if (call && exported) this.calls[callAt].exported = { name, statement: this.range(first, last) };
      }
      // The tree's readers run in this order: declarations (statements), then calls (their callees in text order), then workflows.
      const exportedCalls = this.calls.filter((c) => c.exported !== undefined) as { call: Call; exported: Exported }[];
      for (const { call, exported } of exportedCalls) this.declaration(call, exported);
      for (const { call, exported } of this.calls) this.callFacts(call, exported);
      for (const s of this.strings) {
        if (!this.text.startsWith("data.", this.starts[s] + 1)) continue;
        const op = heldOpId(this.rawString(s));
        if (op) this.facts.opRefs.push({ collection: op.collection, op: op.op, range: this.range(s, s) });
      }
      // An exported const whose value is a call is a workflow to `readWorkflows` (it cannot tell a `workflow(…)` from a `vm(…)`).
      for (const { exported: { name, statement } } of exportedCalls) this.facts.workflows.push({ name: this.word(name), range: this.range(name, name), declaration: statement });
      return this.facts;
    } catch (e) {
      if (e === REFUSE) return undefined;
      throw e;
    }
  }

  // ---- Statements -------------------------------------------------------------------------------

  /** `import …  from "m";`, `import "m";`: the import's names and its bindings. */
  private importDeclaration(): void {
    this.p++;
    const names: ImportedName[] = [];
    const bound: { local: string; imported: string; typeOnly: boolean; element?: Range }[] = [];
    let typeOnly = false;
    if (this.kinds[this.p] === TOKEN.STR) {
      this.importEnd(names, bound, false, false);
      return;
    }
    if (this.isWord(WORD.TYPE)) {
      const next = this.p + 1;
      if (!(this.isPunctAt(next, PUNCT.LBRACE) || this.isPunctAt(next, PUNCT.STAR) || this.isPlainNameAt(next))) throw REFUSE;
      typeOnly = true;
      this.p++;
    }
    let clause = false;
    if (this.isPlainNameAt(this.p)) {
      const local = this.p++;
      names.push({ imported: "default", range: this.range(local, local) });
      bound.push({ local: this.word(local), imported: "default", typeOnly: false });
      clause = true;
      if (this.isPunct(PUNCT.COMMA)) this.p++;
      else { this.importEnd(names, bound, typeOnly, true); return; }
    }
    if (this.isPunct(PUNCT.STAR)) {
      this.p++;
      if (!this.isWord(WORD.AS)) throw REFUSE;
      this.p++;
      const local = this.plainName();
      names.push({ imported: "*", range: this.range(local, local) });
      bound.push({ local: this.word(local), imported: "*", typeOnly: false });
    } else if (this.isPunct(PUNCT.LBRACE)) {
      this.p++;
      while (!this.isPunct(PUNCT.RBRACE)) {
        let elementTypeOnly = false;
        if (this.isWord(WORD.TYPE)) { elementTypeOnly = true; this.p++; }
        const imported = this.plainName();
        let local = imported;
        if (this.isWord(WORD.AS)) { this.p++; local = this.plainName(); }
        names.push({ imported: this.word(imported), range: this.range(imported, imported) });
        bound.push({ local: this.word(local), imported: this.word(imported), typeOnly: elementTypeOnly, element: this.range(imported, local) });
        if (this.isPunct(PUNCT.COMMA)) this.p++;
        else if (!this.isPunct(PUNCT.RBRACE)) throw REFUSE;
      }
      this.p++;
    } else if (!clause) throw REFUSE;
    this.importEnd(names, bound, typeOnly, true);
  }

  /** `from "m";` (the specifier alone without `hasClause`: `import "m"`): the import and its bindings set. */
  private importEnd(names: ImportedName[], bound: { local: string; imported: string; typeOnly: boolean; element?: Range }[], typeOnly: boolean, hasClause: boolean): void {
    if (hasClause) {
      if (!this.isWord(WORD.FROM)) throw REFUSE;
      this.p++;
    }
    const specifier = this.p;
    if (this.kinds[specifier] !== TOKEN.STR) throw REFUSE;
    this.noBackslash(specifier);
    this.p++;
    this.statementEnd();
    const source = this.stringValue(specifier);
    for (const b of bound) this.facts.bindings.set(b.local, { source, imported: b.imported, typeOnly: typeOnly || b.typeOnly, ...(b.element ? { element: b.element } : {}) });
    this.facts.imports.push({ specifier: source, range: this.range(specifier, specifier), names });
  }

  /**
   * A `const`'s value and what the tree's `refOf` makes of it: a literal or a template (nothing),
   * a name or a chain of them (what it refers to), or one call (what it declares). An object
   * literal, whose properties the tree reads as references, is left to it.
   */
  private initializer(): { call?: Call; ref: Ref } {
    if (this.isIdentifierAt(this.p)) {
      const start = this.p;
      const names = this.chain();
      if (this.isPunct(PUNCT.LPAREN)) { this.p = start; return { call: this.call(0), ref: { kind: "other" } }; }
      let ref: Ref = { kind: "local", name: this.word(names[0]) };
      for (const member of names.slice(1)) ref = { kind: "member", base: ref, member: this.word(member) };
      return { ref };
    }
    if (this.isPunct(PUNCT.LBRACE)) throw REFUSE;
    this.value(0);
    return { ref: { kind: "other" } };
  }

  /** `a.b.c`: its names' tokens (an identifier, then any words). */
  private chain(): number[] {
    const names = [this.identifier()];
    while (this.isPunct(PUNCT.DOT)) {
      this.p++;
      if (this.kinds[this.p] !== TOKEN.WORD) throw REFUSE;
      names.push(this.p++);
    }
    return names;
  }

  /** `a.b.c(…)`, its arguments plain values (`value`). */
  private call(depth: number): Call {
    const names = this.chain();
    if (TREE_CALLS.has(this.source(names[0]))) throw REFUSE;
    if (names.length > 1 && TREE_CALLS.has(this.source(names[names.length - 1]))) throw REFUSE;
    this.expectPunct(PUNCT.LPAREN);
    const call: Call = { names, argument: undefined, last: -1 };
    this.calls.push({ call });
    while (!this.isPunct(PUNCT.RPAREN)) {
      const value = this.value(depth + 1);
      call.argument ??= value;
      if (this.isPunct(PUNCT.COMMA)) this.p++;
      else if (!this.isPunct(PUNCT.RPAREN)) throw REFUSE;
    }
    call.last = this.p++;
    return call;
  }

  /**
   * A plain value: a string, a number, `true`, `false`, `null`, a template whose substitutions are
   * names, a name or a chain of them (`zones.east`), a call of one (`secret("KEY")`), `-1`, an
   * object or array literal of these.
   */
  private value(depth: number): Value {
    if (depth > MAX_DEPTH) throw REFUSE;
    const k = this.kinds[this.p];
    const start = this.p;
    switch (k) {
      case TOKEN.STR: case TOKEN.TPL:
        this.string(this.p++);
        return { kind: "string", token: start };
      case TOKEN.NUM:
        this.p++;
        return { kind: "other" };
      case TOKEN.HEAD:
        this.noBackslash(this.p++);
        for (;;) {
          this.identifier();
          const part = this.kinds[this.p];
          if (part !== TOKEN.MIDDLE && part !== TOKEN.TAIL) throw REFUSE;
          this.noBackslash(this.p++);
          if (part === TOKEN.TAIL) return { kind: "other" };
        }
      case TOKEN.WORD: {
        const code = this.codes[this.p];
        if (code === WORD.TRUE || code === WORD.FALSE || code === WORD.NULL) { this.p++; return { kind: "other" }; }
        this.chain();
        if (this.isPunct(PUNCT.LPAREN)) { this.p = start; this.call(depth); }
        return { kind: "other" };
      }
      case TOKEN.PUNCT:
        switch (this.codes[this.p]) {
          case PUNCT.MINUS:
            this.p++;
            if (this.kinds[this.p] !== TOKEN.NUM) throw REFUSE;
            this.p++;
            return { kind: "other" };
          case PUNCT.LBRACE: return this.object(depth);
          case PUNCT.LBRACKET:
            this.p++;
            while (!this.isPunct(PUNCT.RBRACKET)) {
              this.value(depth + 1);
              if (this.isPunct(PUNCT.COMMA)) this.p++;
              else if (!this.isPunct(PUNCT.RBRACKET)) throw REFUSE;
            }
            this.p++;
            return { kind: "other" };
        }
    }
    throw REFUSE;
  }

  /** `{ key: value, name, "quoted": value }`: no spread, method, accessor or computed key. */
  private object(depth: number): Value {
    const first = this.p++;
    const properties: Property[] = [];
    while (!this.isPunct(PUNCT.RBRACE)) {
      const keyToken = this.p;
      const k = this.kinds[keyToken];
      let key: string;
      if (k === TOKEN.STR) { this.string(keyToken); key = this.stringValue(keyToken); }
      else if (k === TOKEN.WORD) key = this.word(keyToken);
      else throw REFUSE;
      this.p++;
      if (this.isPunct(PUNCT.COLON)) {
        this.p++;
        const value = this.value(depth + 1);
        properties.push({ key, keyToken, first: keyToken, last: this.p - 1, value });
      } else if (k === TOKEN.WORD && this.isIdentifierAt(keyToken) && (this.isPunct(PUNCT.COMMA) || this.isPunct(PUNCT.RBRACE))) {
        properties.push({ key, keyToken, first: keyToken, last: keyToken, value: { kind: "other" }, shorthand: true });
      } else throw REFUSE;
      if (this.isPunct(PUNCT.COMMA)) this.p++;
      else if (!this.isPunct(PUNCT.RBRACE)) throw REFUSE;
    }
    return { kind: "object", first, last: this.p++, properties };
  }

  /** The end of a statement: its `;`, or a line break before the next statement's first word (or the text's end). Its last token. */
  private statementEnd(): number {
    if (this.isPunct(PUNCT.SEMI)) return this.p++;
    const k = this.kinds[this.p];
    // Only a word that starts a statement read here: after a break, `(`, `[`, `` ` `` or an
    // operator would go on with the expression instead (no semicolon is inserted there).
    const code = this.codes[this.p];
    const startsStatement = k === TOKEN.WORD && (code === WORD.IMPORT || code === WORD.EXPORT || code === WORD.CONST || code === WORD.VOID);
    if (k !== TOKEN.EOF && !(this.breaks[this.p] && startsStatement)) throw REFUSE;
    return this.p - 1;
  }

  // ---- What the tree's readers make of the statements ---------------------------------------------

  /** `export const name = callee(…)`: a resource declaration (A5), as `readDeclaration` reads it. */
  private declaration(call: Call, { name, statement }: Exported): void {
    const { names, argument } = call;
    const member = names.length > 1 ? names[names.length - 1] : undefined;
    const via = names.length > 2 ? names.slice(1, -1).map((t) => this.word(t)) : undefined;
    let desired: DeclarationFact["desired"];
    if (argument?.kind === "object") {
      const keys: DesiredKey[] = argument.properties.map((p) => ({ name: p.key, range: this.range(p.keyToken, p.keyToken), ...(p.shorthand ? { shorthand: true as const } : {}) }));
      desired = { keys, hasSpread: false, range: this.range(argument.first, argument.last) };
    } else if (argument === undefined) {
      desired = { keys: [], hasSpread: false, range: this.range(names[0], call.last) };
    }
    this.facts.declarations.push({
      exportName: this.word(name), nameRange: this.range(name, name),
      callee: { base: this.word(names[0]), member: member === undefined ? undefined : this.word(member), range: this.range(names[0], names[names.length - 1]), memberRange: member === undefined ? undefined : this.range(member, member), via },
      desired, range: statement,
    });
  }

  /** A call of `collection` or `secret` as imported (`readCalls`): a collection, a secret's name. */
  private callFacts(call: Call, exported: Exported | undefined): void {
    if (call.names.length > 1) {
      // `d.collection(…)`, `h.secret(…)` on a namespace: read by the tree.
      const last = this.source(call.names[call.names.length - 1]);
      if (last === "collection" || last === "secret") throw REFUSE;
      return;
    }
    const binding = this.facts.bindings.get(this.source(call.names[0]));
    if (binding?.imported === "collection" && isFrameworkModule(binding.source)) this.collection(call, exported);
    else if (binding?.imported === "secret" && call.argument?.kind === "string") {
      const t = call.argument.token;
      this.facts.secretCalls.push({ name: this.stringValue(t), range: this.range(t, t) });
    }
  }

  /** `collection({ name, key, fields })`, as `readCollection` reads it. */
  private collection(call: Call, exported: Exported | undefined): void {
    const c: CollectionFact = {
      callRange: this.range(call.names[0], call.names[0]), exported: exported !== undefined,
      exportName: exported === undefined ? undefined : this.word(exported.name), nameRange: exported === undefined ? undefined : this.range(exported.name, exported.name),
    };
    if (exported !== undefined) c.statementRange = exported.statement;
    const a = call.argument;
    if (a?.kind === "object") {
      c.options = { range: this.range(a.first, a.last), ...(a.properties.length > 0 ? { first: this.range(a.properties[0].first, a.properties[0].last) } : {}) };
      // (The last of a key written twice, as JavaScript keeps it: `prop` in ts-nodes.ts.)
      const prop = (name: string): Property | undefined => a.properties.findLast((p) => p.key === name);
      const n = prop("name");
      if (n?.value.kind === "string") c.nameLiteral = { value: this.stringValue(n.value.token), range: this.range(n.value.token, n.value.token) };
      else if (n) c.nameNotLiteral = true;
      const k = prop("key");
      if (k?.value.kind === "string") c.key = { value: this.stringValue(k.value.token), range: this.range(k.value.token, k.value.token) };
      const f = prop("fields")?.value;
      if (f?.kind === "object") c.fields = f.properties.map((p) => ({ name: p.key, range: this.range(p.keyToken, p.keyToken) }));
    }
    this.facts.collections.push(c);
  }

  // ---- Tokens -----------------------------------------------------------------------------------

  private range(first: number, last: number): Range {
    return this.lines.range(this.starts[first], this.ends[last]);
  }
  /** A token's text, a slice of the file's (to compare, never to keep: it would keep the whole text). */
  private source(k: number): string {
    return this.text.slice(this.starts[k], this.ends[k]);
  }
  /** A word's text, to keep in the facts: interned, as the tree's reading interns its facts' strings (intern.ts). */
  private word(k: number): string {
    return intern(this.source(k));
  }
  /** A string literal's value: what lies between its quotes (one with an escape is refused where it is read). */
  private rawString(k: number): string {
    return this.text.slice(this.starts[k] + 1, this.ends[k] - 1);
  }
  /** A string literal's value, to keep: interned. */
  private stringValue(k: number): string {
    return intern(this.rawString(k));
  }
  /** A string literal or a template without substitutions: noted for the operation references; none with an escape. */
  private string(k: number): void {
    this.noBackslash(k);
    this.strings.push(k);
  }
  /** An escape makes a literal's value differ from its text, and a template's `\r\n` is read as `\n`: left to the tree. */
  private noBackslash(k: number): void {
    for (let i = this.starts[k]; i < this.ends[k]; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 92 || c === 13) throw REFUSE;
    }
  }
  private isWord(code: number): boolean {
    return this.kinds[this.p] === TOKEN.WORD && this.codes[this.p] === code;
  }
  private isPunct(code: number): boolean {
    return this.isPunctAt(this.p, code);
  }
  private isPunctAt(k: number, code: number): boolean {
    return this.kinds[k] === TOKEN.PUNCT && this.codes[k] === code;
  }
  private expectPunct(code: number): void {
    if (!this.isPunct(code)) throw REFUSE;
    this.p++;
  }
  private isIdentifierAt(k: number): boolean {
    return this.kinds[k] === TOKEN.WORD && isIdentifierCode(this.codes[k]);
  }
  /** An identifier here (its token), or a refusal. */
  private identifier(): number {
    if (!this.isIdentifierAt(this.p)) throw REFUSE;
    return this.p++;
  }
  /** An identifier that is none of `AMBIGUOUS_NAMES`. */
  private isPlainNameAt(k: number): boolean {
    return this.isIdentifierAt(k) && !AMBIGUOUS_NAMES.has(this.source(k));
  }
  private plainName(): number {
    if (!this.isPlainNameAt(this.p)) throw REFUSE;
    return this.p++;
  }
}
