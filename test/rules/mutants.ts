/**
 * Seeded mutations of a text, what a typist does to it on the way to the next version: characters
 * and spans deleted or doubled, fragments inserted, lines swapped, tokens deleted, doubled, swapped
 * or replaced by a word TypeScript treats apart. Shared by the tests that hold a reading without
 * TypeScript's parser to the parser's (`vouch.test.ts`, `light-data.test.ts`).
 */
/** Fragments inserted at random: each a way a character or a token can make a text wrong (or stay right). */
const FRAGMENTS = [
  "(", ")", "{", "}", "[", "]", "<", ">", "=>", "?.", "!", ";", ",", ":", "?", ".", "...", "'", "\"", "`", "${", "/", "\\",
  "01", "0x", "1_", "1__0", ".5.", "\n", "++", "--", "async ", "await ", "yield ", "class ", "let ", "const ", "return ",
  "export ", "import ", "default ", "new ", "as ", "satisfies ", "<T>", "#x", "@d ", "/re/g", "\"\\u{", "\"\\x", "é", "\u2028",
  "\u00a0", "//", "/*", "*/", "enum ", "declare ", "abstract ", "interface X {}", "type T = ", "function ", "=", "==", "===",
  "**", "??", "?? =", "&&=", ">>>=", "@", "#",
];

/** Words put in an identifier's place: each is a keyword somewhere, or a name TypeScript treats apart. */
const WORDS = [
  "string", "number", "any", "unknown", "never", "object", "undefined", "symbol", "bigint", "boolean", "is", "asserts", "infer",
  "unique", "abstract", "declare", "namespace", "module", "global", "out", "accessor", "override", "constructor", "private", "public",
  "static", "let", "implements", "package", "async", "await", "yield", "get", "set", "of", "from", "as", "satisfies", "type", "keyof",
  "readonly", "new", "this", "super", "void", "null", "true", "typeof", "delete", "in", "instanceof", "default", "export", "import",
  "enum", "interface", "class", "function", "var", "const", "debugger", "with", "meta", "arguments",
];

/** ~28 mutants of a text: characters and spans deleted, spans duplicated, fragments inserted, lines swapped; tokens deleted, doubled, swapped, replaced. */
export function mutants(text: string, r: () => number): string[] {
  const at = (n: number) => Math.floor(r() * n);
  const out: string[] = [];
  const n = text.length;
  if (n === 0) return out;
  for (let k = 0; k < 3; k++) { const i = at(n); out.push(text.slice(0, i) + text.slice(i + 1)); }
  for (let k = 0; k < 3; k++) { const i = at(n); out.push(text.slice(0, i) + text.slice(i + 1 + at(20))); }
  for (let k = 0; k < 2; k++) { const i = at(n); const span = text.slice(i, i + 1 + at(20)); out.push(text.slice(0, i) + span + text.slice(i)); }
  for (let k = 0; k < 10; k++) { const i = at(n + 1); out.push(text.slice(0, i) + FRAGMENTS[at(FRAGMENTS.length)] + text.slice(i)); }
  const lines = text.split("\n");
  for (let k = 0; k < 2 && lines.length > 1; k++) {
    const a = at(lines.length);
    const b = at(lines.length);
    const swapped = [...lines];
    [swapped[a], swapped[b]] = [swapped[b], swapped[a]];
    out.push(swapped.join("\n"));
  }
  // Token by token (words, numbers, runs of space, single characters): what a typist does.
  const tokens = text.match(/[A-Za-z_$][\w$]*|\d+|\s+|[^\w\s]/g) ?? [];
  if (tokens.length > 1) {
    const edit = (change: (t: string[]) => void) => { const t = [...tokens]; change(t); out.push(t.join("")); };
    for (let k = 0; k < 2; k++) edit((t) => t.splice(at(t.length), 1));
    for (let k = 0; k < 2; k++) edit((t) => t.splice(at(t.length), 0, t[at(t.length)]));
    for (let k = 0; k < 2; k++) edit((t) => { const i = at(t.length - 1); [t[i], t[i + 1]] = [t[i + 1], t[i]]; });
    for (let k = 0; k < 2; k++) edit((t) => { const words = t.flatMap((w, i) => /^[A-Za-z_$]/.test(w) ? [i] : []); if (words.length) t[words[at(words.length)]] = WORDS[at(WORDS.length)]; });
  }
  return out;
}
