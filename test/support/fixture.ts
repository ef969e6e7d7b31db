/**
 * Data-driven fixtures: a company tree written inline, with the expected problems drawn under the
 * text (rust-analyzer style).
 *
 *   //- /apps/maps/workflows/render.ts        a file header: the path under the company's folder
 *   import { rank } from "../../search/x";
 *   //                   ^^^^^^^^^^^^^^^^ no-cross-app-import  optional message words
 *
 * A marker line (`//` then spaces then `^`) belongs to the nearest line above it that is not a
 * marker; it is removed from the file written to disk, so JSON files can carry markers too.
 * `$0` marks a cursor (removed from the text; its position is returned).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface Expected {
  /** Path relative to the fixture's root, without the leading slash. */
  file: string;
  line: number;
  startCol: number;
  endCol: number;
  rule: string;
  /** Words the message must contain, if any. */
  text?: string;
}

export interface Fixture {
  files: Record<string, string>;
  expected: Expected[];
  cursor?: { file: string; line: number; character: number };
}

const MARKER = /^\/\/(\s*)(\^+)\s+([a-z-]+)(?:\s+(.*))?$/;

export function parseFixture(source: string): Fixture {
  const files: Record<string, string> = {};
  const expected: Expected[] = [];
  let cursor: Fixture["cursor"];
  let current: string | undefined;
  let lines: string[] = [];
  const flush = () => { if (current !== undefined) files[current] = lines.join("\n") + "\n"; };
  for (const raw of source.split("\n")) {
    const header = /^\/\/- (\/\S*)\s*$/.exec(raw);
    if (header) { flush(); current = header[1].slice(1); lines = []; continue; }
    if (current === undefined) continue;
    const m = MARKER.exec(raw);
    if (m) {
      const start = 2 + m[1].length;
      expected.push({ file: current, line: lines.length - 1, startCol: start, endCol: start + m[2].length, rule: m[3], text: m[4]?.trim() || undefined });
      continue;
    }
    const at = raw.indexOf("$0");
    if (at >= 0) { cursor = { file: current, line: lines.length, character: at }; lines.push(raw.replace("$0", "")); continue; }
    lines.push(raw);
  }
  flush();
  // Trailing blank lines of the template literal are not part of the last file.
  for (const k of Object.keys(files)) files[k] = files[k].replace(/\n+$/, "\n");
  return { files, expected, cursor };
}

/** Writes a fixture's files under a new temporary folder and returns its (real) path. */
export function writeFixture(fixture: Fixture | string, prefix = "sanoma-fixture-"): string {
  const f = typeof fixture === "string" ? parseFixture(fixture) : fixture;
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  for (const [rel, text] of Object.entries(f.files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  return root;
}

export function removeFixture(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** A problem as every surface can give it: file relative to the fixture root, 0-based line, columns. */
export interface Found { file: string; line: number; startCol: number; endCol: number; rule: string; message: string }

/** Compares found problems with the expected ones; returns a readable difference, or "" when they agree. */
export function diffExpected(expected: Expected[], found: Found[], options: { rules?: Set<string>; ignoreEnd?: boolean } = {}): string {
  const relevant = options.rules ? found.filter((f) => options.rules!.has(f.rule)) : found;
  const exp = options.rules ? expected.filter((e) => options.rules!.has(e.rule)) : expected;
  const key = (x: { file: string; line: number; startCol: number; endCol: number; rule: string }) =>
    `${x.file}:${x.line + 1}:${x.startCol + 1}${options.ignoreEnd ? "" : `-${x.endCol + 1}`} ${x.rule}`;
  const want = exp.map(key).sort();
  const got = relevant.map(key).sort();
  const missing = want.filter((w) => { const i = got.indexOf(w); return i < 0; });
  const extra = got.filter((g) => !want.includes(g));
  const badText = exp.filter((e) => e.text && !relevant.some((f) => key(f) === key(e) && f.message.includes(e.text!)));
  const out: string[] = [];
  for (const m of missing) out.push(`missing ${m}`);
  for (const x of extra) out.push(`extra   ${x}  ${relevant.find((f) => key(f) === x)?.message ?? ""}`);
  for (const b of badText) out.push(`message of ${key(b)} lacks "${b.text}": ${relevant.filter((f) => key(f) === key(b)).map((f) => f.message).join(" | ")}`);
  if (want.length !== got.length && !missing.length && !extra.length) out.push(`counts differ: expected ${want.length}, found ${got.length}\n  ${got.join("\n  ")}`);
  return out.join("\n");
}
