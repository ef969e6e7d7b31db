/**
 * A unified diff of two texts (`--fix-dry-run`), in the form `git apply` and `patch -p1` read:
 * `--- a/<path>` and `+++ b/<path>` headers, hunks with three lines of context, and
 * `\ No newline at end of file` where a side ends without one. Lines are compared whole, a `\r`
 * of a CRLF file kept as part of its line. Myers' O(ND) algorithm over the lines between the
 * common head and tail: a fix changes a few lines of a file.
 */

const CONTEXT = 3;

interface Lines { lines: string[]; newlineAtEnd: boolean }

function split(text: string): Lines {
  if (text === "") return { lines: [], newlineAtEnd: true };
  const lines = text.split("\n");
  const newlineAtEnd = lines[lines.length - 1] === "";
  if (newlineAtEnd) lines.pop();
  return { lines, newlineAtEnd };
}

type Op = { kind: " " | "-" | "+"; a: number; b: number };

/** The edit script between two line lists (each op with its line indexes in a and b). */
function diffLines(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const A = a.slice(head, a.length - tail);
  const B = b.slice(head, b.length - tail);
  const middle = myers(A, B);
  const ops: Op[] = [];
  for (let i = 0; i < head; i++) ops.push({ kind: " ", a: i, b: i });
  for (const op of middle) ops.push({ kind: op.kind, a: op.a + head, b: op.b + head });
  for (let i = tail; i > 0; i--) ops.push({ kind: " ", a: a.length - i, b: b.length - i });
  return ops;
}

function myers(a: string[], b: string[]): Op[] {
  const n = a.length, m = b.length, max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[offset + k] = x;
      if (x >= n && y >= m) { found = d; break; }
    }
  }
  // Walk back through the saved frontiers.
  const ops: Op[] = [];
  let x = n, y = m;
  for (let d = found; d > 0; d--) {
    const pv = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && pv[offset + k - 1] < pv[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = pv[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) { x--; y--; ops.push({ kind: " ", a: x, b: y }); }
    if (x === prevX) { y--; ops.push({ kind: "+", a: x, b: y }); } else { x--; ops.push({ kind: "-", a: x, b: y }); }
  }
  while (x > 0 && y > 0) { x--; y--; ops.push({ kind: " ", a: x, b: y }); }
  return ops.reverse();
}

/** C-style escapes git writes in a quoted name. */
const ESCAPES: Record<string, string> = { "\u0007": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\u000b": "\\v", "\f": "\\f", "\r": "\\r", "\"": "\\\"", "\\": "\\\\" };

/**
 * A file's name in a diff's `---`/`+++` line, as git writes it: as it is, or, when it holds a
 * quote, a backslash or a control character (a line break would end the header), in double
 * quotes with C-style escapes (`"a/nl\nx/f.ts"`), which `git apply` and `patch` read back.
 */
export function headerName(prefix: string, file: string): string {
  const name = prefix + file;
  let quoted = "";
  let any = false;
  for (const c of name) {
    const code = c.charCodeAt(0);
    const special = c === "\"" || c === "\\" || code < 0x20 || code === 0x7f;
    any ||= special;
    quoted += special ? ESCAPES[c] ?? `\\${code.toString(8).padStart(3, "0")}` : c;
  }
  // A name with a space ends with a tab, as git writes it: `patch` reads a name up to a tab (or the
  // line's end), and without one takes a space-holding name for a name and a timestamp.
  return any ? `"${quoted}"` : name.includes(" ") ? `${name}\t` : name;
}

/** The unified diff turning `before` into `after`, or "" when they are equal. `file` is the path shown (with `/`). */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return "";
  const A = split(before), B = split(after);
  // The last line's missing newline is a difference of that line: compare it with a mark.
  const a = A.lines.map((l, i) => (i === A.lines.length - 1 && !A.newlineAtEnd ? l + "\u0000" : l));
  const b = B.lines.map((l, i) => (i === B.lines.length - 1 && !B.newlineAtEnd ? l + "\u0000" : l));
  const ops = diffLines(a, b);
  const out = [`--- ${headerName("a/", file)}`, `+++ ${headerName("b/", file)}`];
  const changed = ops.map((o, i) => (o.kind !== " " ? i : -1)).filter((i) => i >= 0);
  let i = 0;
  while (i < changed.length) {
    // A hunk: from CONTEXT ops before the first change to CONTEXT after the last change that is
    // within 2 × CONTEXT of the one before it.
    let last = changed[i];
    let j = i + 1;
    while (j < changed.length && changed[j] - last <= 2 * CONTEXT) last = changed[j++];
    const start = Math.max(0, changed[i] - CONTEXT);
    const end = Math.min(ops.length, last + CONTEXT + 1);
    const hunk = ops.slice(start, end);
    const aCount = hunk.filter((o) => o.kind !== "+").length;
    const bCount = hunk.filter((o) => o.kind !== "-").length;
    const aStart = aCount === 0 ? hunk[0].a : hunk[0].a + 1;
    const bStart = bCount === 0 ? hunk[0].b : hunk[0].b + 1;
    out.push(`@@ -${aStart}${aCount === 1 ? "" : `,${aCount}`} +${bStart}${bCount === 1 ? "" : `,${bCount}`} @@`);
    for (const o of hunk) {
      const line = o.kind === "+" ? b[o.b] : a[o.a];
      if (line.endsWith("\u0000")) out.push(o.kind + line.slice(0, -1), "\\ No newline at end of file");
      else out.push(o.kind + line);
    }
    i = j;
  }
  return out.join("\n") + "\n";
}
