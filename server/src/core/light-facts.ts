/**
 * A file's facts read without a syntax tree where its text allows (`readFactsLightly`), what else
 * is asked of them read from the tree on first use.
 */
import type { CollectionFact, ConfigFact, DeclarationFact, FileFacts, ImportFact, OpRefFact, ResourceSpecFact, SecretCallFact, SyntaxVerdict, WorkflowFact } from "./fact-types.ts";
import { heldOpId } from "./fact-types.ts";
import { NOT_KNOWN, PARSES, parsedVerdict, readFacts, syntaxAndWorkflows, syntaxVerdict, tooDeepFacts } from "./facts-tree.ts";
import { intern } from "./intern.ts";
import { literalValue, scannable, scanSitesUpTo, scanText, type Span, type TextSite, type TextString } from "./scan.ts";
import { LineMap } from "./text.ts";
import type { Range } from "./types.ts";
import { PUNCT, readVouched, TOKEN, WORD, type VouchedTokens } from "./vouch.ts";

/**
 * What only a syntax tree says of a file beyond its import sites and its string literals: a
 * resource spec needs a call of `defineResource`, a collection or a secret call a local bound to
 * `collection` or `secret`. A text without these words holds none of them.
 */
const BEYOND_TEXT = /defineResource|secret|collection/;

/**
 * A file's facts, read without a syntax tree where its text allows (the index reads most files of
 * a big company this way, and parsing is most of its cost). When the text holds no word of
 * `BEYOND_TEXT`, what the rules read of it at once is its import sites and its operation
 * references, and the text scanner (`scan.ts`, exact or refusing) reads both: the sites, and the
 * string literals starting with `data.` that are no import's specifier. It holds no specs,
 * collections or secret calls. Everything else (exports, locals, declarations, workflows, syntax
 * errors) is read from the syntax tree the first time it is asked for, which the resolver,
 * navigation and symbols do for a few files only. `test/rules/light-facts.test.ts` holds both
 * readings to the same facts.
 */
export function readFactsLightly(fileName: string, text: string, reread?: LightReading): FileFacts {
  // The whole text is tokenized, not just its imports: an unbalanced bracket or an unterminated
  // literal anywhere (a file being typed) makes the scanner refuse, and the parser's recovery
  // reads the file, as before.
  if (scannable(fileName) && !BEYOND_TEXT.test(text)) {
    const scanned = scanText(text, "data.");
    if (scanned !== undefined) return new LightFacts(fileName, text, scanned.sites, scanned.strings, reread);
  }
  return readFacts(fileName, text);
}

/**
 * What is read of a text from the text alone, for a file whose syntax tree cannot be read (nested
 * deeper than the parser's stack): its import sites and operation references, which A11 judges
 * whatever the file's syntax; nothing else (its declarations stay unknown: the file is skipped,
 * or, nested too deep to load, it does not load). `verdict`: what is known of its syntax (by
 * default nothing: no error is claimed, as `readFacts` claims none). Undefined where the scanner
 * cannot read it either.
 */
export function readTextOnly(fileName: string, text: string, verdict: SyntaxVerdict = NOT_KNOWN): FileFacts | undefined {
  if (!scannable(fileName) || BEYOND_TEXT.test(text)) return undefined;
  const scanned = scanText(text, "data.");
  return scanned === undefined ? undefined : new LightFacts(fileName, text, scanned.sites, scanned.strings, undefined, verdict);
}

/**
 * A workflow source's facts, read for a host that asks each one whether it parses as it reads it
 * (`sanoma-check`: `Company.judgeSyntaxAsRead`): the facts `readFactsLightly` reads, with the
 * verdict known. Where `vouch.ts` vouches that the text parses, its tokens give the string
 * literals and where the last import word stands, and the scanner reads the import sites only up
 * to there (`scanSitesUpTo`): the text is tokenized whole once, not twice (by the scanner for its
 * strings, then by `vouch.ts` for its verdict). Where it does not vouch, the text is read as
 * `readFactsLightly` reads it and parsed for its verdict (a text holding `defineResource`,
 * `secret` or `collection` is not vouched for here: its verdict is left to be asked).
 * `test/rules/light-facts.test.ts` holds the readings to the tree's facts.
 */
export function readWorkflowSourceJudged(fileName: string, text: string, reread?: LightReading): FileFacts {
  if (!scannable(fileName) || BEYOND_TEXT.test(text)) return readFactsLightly(fileName, text, reread);
  let read: { strings: TextString[]; lastSiteWord: number } | typeof UNREADABLE | undefined;
  try {
    read = readVouched(fileName, text, (tokens) => vouchedStrings(tokens, "data.") ?? UNREADABLE);
  } catch {
    // (A fault of the recognizer's is not a verdict, as `vouchesFor` takes it: the text is read the other way.)
  }
  if (read !== undefined && read !== UNREADABLE) {
    const sites = scanSitesUpTo(text, read.lastSiteWord);
    if (sites !== undefined) return new LightFacts(fileName, text, sites, read.strings, reread, PARSES);
  }
  const facts = readFactsLightly(fileName, text, reread);
  // Vouched for, or not (then parsed now, not vouched for a second time when the verdict is asked).
  if (textAwaitingSyntax(facts) !== undefined) {
    const verdict = read !== undefined ? PARSES : parsedVerdict(fileName, text);
    // The parser ran out of stack, and the text is not nested deep enough to say it does not load:
    // read as `readFacts` reads it, nothing (the company skips the file, and says so).
    if (verdict === NOT_KNOWN) return tooDeepFacts(verdict);
    knowSyntax(facts, verdict);
  }
  return facts;
}

/** What `vouchedStrings` refused to read of a text `vouch.ts` vouched for (a literal's escapes): the text parses all the same. */
const UNREADABLE = Symbol("unreadable");

/**
 * The string literals of a text `vouch.ts` vouched for whose value starts with `prefix`, as
 * `scanText` reads them from its own tokens (the same rule, token for token: a module's name where
 * it stands is none), and where its last `import`, `require` or `from` word starts (-1: none; a
 * vouched text has no word written with an escape); undefined when a literal's escapes cannot be
 * read surely.
 */
function vouchedStrings(tokens: VouchedTokens, prefix: string): { strings: TextString[]; lastSiteWord: number } | undefined {
  const { text, kinds, codes, starts, ends } = tokens;
  const strings: TextString[] = [];
  let lastSiteWord = -1;
  // The next backslash at or after the literal being read (-1: none left), as `scanText` keeps it.
  let backslash = text.indexOf("\\");
  for (let k = 0; kinds[k] !== TOKEN.EOF; k++) {
    const kind = kinds[k];
    if (kind === TOKEN.WORD) {
      const length = ends[k] - starts[k];
      if (codes[k] === WORD.IMPORT || codes[k] === WORD.FROM || (length === 7 && text.startsWith("require", starts[k]))) lastSiteWord = starts[k];
      continue;
    }
    if (kind !== TOKEN.STR && kind !== TOKEN.TPL) continue;
    const escaped = !text.startsWith(prefix, starts[k] + 1);
    if (backslash >= 0 && backslash < starts[k]) backslash = text.indexOf("\\", starts[k]);
    if (escaped && !(backslash >= 0 && backslash < ends[k])) continue;
    if (k > 0 && (wordIs(tokens, k - 1, "from") || wordIs(tokens, k - 1, "import") || wordIs(tokens, k - 1, "module"))) continue;
    if (k > 1 && kinds[k - 1] === TOKEN.PUNCT && codes[k - 1] === PUNCT.LPAREN && (wordIs(tokens, k - 2, "require") || wordIs(tokens, k - 2, "import"))) continue;
    const value = literalValue(text, starts[k], ends[k], kind === TOKEN.TPL);
    if (value === undefined) return undefined;
    if (escaped && !value.startsWith(prefix)) continue;
    strings.push({ range: [starts[k], ends[k]], value });
  }
  return { strings, lastSiteWord };
}

/** Whether token `k` is the word `word`, not after `.` or `?.` (no property's name). */
function wordIs(tokens: VouchedTokens, k: number, word: string): boolean {
  const { kinds, codes, starts, ends, text } = tokens;
  if (kinds[k] !== TOKEN.WORD || ends[k] - starts[k] !== word.length || !text.startsWith(word, starts[k])) return false;
  return !(k > 0 && kinds[k - 1] === TOKEN.PUNCT && (codes[k - 1] === PUNCT.DOT || codes[k - 1] === PUNCT.QDOT));
}

/**
 * How facts read without a syntax tree may let their text go (issue 23: a text kept for a parse
 * that never comes, in every file of a big company). `text` reads a file's text again when a
 * parse is asked for (one reading serves every file of a company: no object per file); `syntaxAsked`: whether anything will ask if the text parses (a workflow source's
 * does, for `syntax-error`), so the text is kept until then, else let go at once.
 * A text read again that is not the one first read (the file changed, and its change has not reached
 * the index yet) is read as it is: its change replaces these facts when it arrives.
 */
export interface LightReading {
  text(file: string): string | undefined;
  syntaxAsked: boolean;
  /**
   * Whether the host lists workflows (the server's symbol search asks every workflow source for
   * them): the parse that learns whether a text parses reads its workflows too, and keeps them,
   * so no second parse is made for them later.
   */
  workflowsAsked?: boolean;
}

/**
 * Whether a file's workflows are read yet: false for a file read lightly whose tree nothing has
 * asked for, and whose verdict was not parsed for a host that lists workflows. (The server reads
 * what is left before a symbol search, and says how many it read.)
 */
export function workflowsRead(facts: FileFacts): boolean {
  return !(facts instanceof LightFacts) || facts.workflowsKnown;
}

/**
 * The text of a file read without a syntax tree whose syntax is not known yet (nothing has parsed
 * it) and which still holds it, or undefined: what a caller can parse elsewhere (another thread)
 * and tell the facts with `knowSyntax`, so that no later question parses it here.
 */
export function textAwaitingSyntax(facts: FileFacts): string | undefined {
  return facts instanceof LightFacts && !facts.syntaxKnown ? facts.pendingText : undefined;
}

/** Tells facts read without a syntax tree whether their text parses (see `textAwaitingSyntax`); other facts know it already. */
export function knowSyntax(facts: FileFacts, verdict: SyntaxVerdict): void {
  if (facts instanceof LightFacts) facts.knowSyntax(verdict);
}

/** Shared by every light file: frozen, so that a push into it would fail loudly. */
const NONE = Object.freeze([]) as unknown as never[];

/** A list as it is kept for long: none shared, some in an array of their size (one grown by pushes holds room for more). */
function kept<T>(items: T[]): T[] {
  return items.length === 0 ? NONE : items.slice();
}

class LightFacts implements FileFacts {
  readonly imports: ImportFact[];
  readonly specs: ResourceSpecFact[] = NONE;
  readonly collections: CollectionFact[] = NONE;
  readonly opRefs: OpRefFact[] = NONE;
  readonly secretCalls: SecretCallFact[] = NONE;
  private text: string | undefined;
  private tree: FileFacts | undefined;
  /** The workflows, read from a tree that was not kept (see `workflows`). */
  private workflowsOnly: WorkflowFact[] | undefined;
  private verdict: SyntaxVerdict | undefined;

  /** `strings`: the text's string literals starting with `data.`, in order. `reread`: how to let the text go (none: it is kept until the tree is read). `verdict`: whether the text parses, when known already. */
  constructor(private readonly fileName: string, text: string, sites: TextSite[], strings: TextString[], private readonly reread?: LightReading, verdict?: SyntaxVerdict) {
    const lines = new LineMap(text);
    const range = (s: Span): Range => lines.range(s.range[0], s.range[1]);
    // Strings interned: a slice of the text would keep the whole text (intern.ts).
    this.imports = sites.map((site) => ({ specifier: intern(site.specifier), range: range(site.specifierRange), names: site.names.map((n) => ({ imported: intern(n.imported), range: range(n.range) })) }));
    if (strings.length > 0) {
      const opRefs: OpRefFact[] = [];
      // Where the sites' specifiers start: a string there is a module's name (looked up, not
      // searched for in every site: a file of thousands of imports and op strings).
      const specifiers = new Set(sites.map((site) => site.specifierRange.range[0]));
      for (const s of strings) {
        const op = specifiers.has(s.range[0]) ? undefined : heldOpId(s.value);
        if (op) opRefs.push({ collection: op.collection, op: op.op, range: lines.range(s.range[0], s.range[1]) });
      }
      if (opRefs.length > 0) this.opRefs = opRefs;
    }
    this.verdict = verdict;
    if (!reread || (reread.syntaxAsked && !verdict)) this.text = text;
  }

  /** The text to parse: the one kept, else read again (a file gone since: an empty text, until its removal reaches the index). */
  private textNow(): string {
    return this.text ?? this.reread?.text(this.fileName) ?? "";
  }

  get workflowsKnown(): boolean {
    return this.tree !== undefined || this.workflowsOnly !== undefined;
  }

  /** The facts read from the syntax tree, once; the text is let go then. */
  private full(): FileFacts {
    if (this.tree === undefined) {
      this.tree = readFacts(this.fileName, this.textNow());
      this.text = undefined;
    }
    return this.tree;
  }

  /**
   * Whether the text parses, known without a syntax tree kept: told (`knowSyntax`, from a parse
   * made elsewhere: another thread, another host's tree), read from the tree once it is read, or
   * parsed for this alone (the tree dropped at once: the file stays light).
   */
  private syntax(): SyntaxVerdict {
    if (this.verdict === undefined) {
      if (this.tree) this.verdict = { errors: this.tree.syntaxErrors, first: this.tree.firstSyntaxError };
      else if (this.reread?.workflowsAsked && this.workflowsOnly === undefined) {
        const read = syntaxAndWorkflows(this.fileName, this.textNow());
        this.verdict = read.verdict;
        this.workflowsOnly = kept(read.workflows);
      } else this.verdict = syntaxVerdict(this.fileName, this.textNow());
      if (this.reread) this.text = undefined;
    }
    return this.verdict;
  }

  /** Whether `syntax()` would parse. */
  get syntaxKnown(): boolean {
    return this.verdict !== undefined || this.tree !== undefined;
  }

  /** Takes a verdict on this text's syntax computed elsewhere (the same text: the caller's to know). */
  knowSyntax(verdict: SyntaxVerdict): void {
    if (this.syntaxKnown) return;
    this.verdict = verdict;
    if (this.reread) this.text = undefined;
  }

  /** The text, while the tree is not read (after, it is let go). */
  get pendingText(): string | undefined {
    return this.text;
  }

  get syntaxErrors(): number { return this.syntax().errors; }
  get firstSyntaxError(): FileFacts["firstSyntaxError"] { return this.syntax().first; }
  get bindings(): FileFacts["bindings"] { return this.full().bindings; }
  get locals(): FileFacts["locals"] { return this.full().locals; }
  get exports(): FileFacts["exports"] { return this.full().exports; }
  get starExports(): string[] { return this.full().starExports; }
  get declarations(): DeclarationFact[] { return this.full().declarations; }
  /**
   * The workflows. Where the text can be read again, only they are kept of the tree (and its
   * verdict): a symbol search asks every workflow source for them, and nothing else of most.
   */
  get workflows(): WorkflowFact[] {
    if (this.tree !== undefined || this.reread === undefined) return this.full().workflows;
    if (this.workflowsOnly === undefined) {
      const tree = readFacts(this.fileName, this.textNow());
      this.workflowsOnly = kept(tree.workflows);
      if (this.verdict === undefined) this.verdict = { errors: tree.syntaxErrors, first: tree.firstSyntaxError };
      this.text = undefined;
    }
    return this.workflowsOnly;
  }
  get config(): ConfigFact | undefined { return this.full().config; }
}
