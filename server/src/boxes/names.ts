/**
 * Box names (SPEC B4): which names are refused, and how a preview's `<scope>-<export>` becomes one.
 * A box's name is also the name of its folder under the boxes directory, so a name must never
 * reach another folder: no separators, no `..`, and nothing starting with `.` (the boxes
 * directory keeps its own bookkeeping in dot folders such as `.runs`). Nor another box's folder:
 * names that macOS or Windows would take for one folder (`Demo` and `demo`, `café` in NFC and in
 * NFD) are one box's at most (`sameFolder`; the service refuses the second, on every system).
 */

/** The error for a refused name; its message is SPEC B4's sentence, word for word. */
export class BoxNameError extends Error {
  readonly boxName: string;
  constructor(name: string) {
    super(`${name} is no box's name`);
    this.name = "BoxNameError";
    this.boxName = name;
  }
}

/** Why `name` is refused, or undefined when it is a box's name. */
export function boxNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return `${String(name)} is no box's name`;
  // `\0` would cut the path short in system calls; `\` is a separator on Windows.
  if (name === "" || name === ".." || name.startsWith(".") || /[/\\\0]/.test(name)) return new BoxNameError(name).message;
  // A file name takes 255 bytes at most: a longer name could make no folder.
  if (Buffer.byteLength(name) > 255) return new BoxNameError(name).message;
  return undefined;
}

/** Returns `name` when it is a box's name, else throws `BoxNameError`. */
export function checkBoxName(name: unknown): string {
  if (boxNameProblem(name) !== undefined) throw new BoxNameError(String(name));
  return name as string;
}

/**
 * The key under which macOS would take two names for one folder: its file systems ignore letter
 * case and Unicode normalization (APFS compares names normalized, HFS+ stores them in NFD). NFC,
 * then lower, upper and lower case again: near Unicode's full case folding (`ß`, `ẞ` and `SS` are
 * `ss`, `ﬁ` is `fi`, a final `ς` is `σ`), and wider where it differs (`ı` is `i`): a name refused too
 * many, never one let through. No locale's rules (Turkish `İ` is not `i`), no compatibility forms
 * (fullwidth `ｆ` is not `f`).
 */
export function folderKey(name: string): string {
  return name.normalize("NFC").toLowerCase().toUpperCase().toLowerCase().normalize("NFC");
}

/**
 * Where two different names would be one folder: `"macOS and Windows"` when Windows too takes them
 * for one (NTFS compares names upper-cased letter by letter, as written: `Demo` and `demo`), `"macOS"`
 * when the difference is also one of Unicode normalization (NFC and NFD), else undefined.
 */
export function sameFolder(a: string, b: string): "macOS and Windows" | "macOS" | undefined {
  if (a === b || folderKey(a) !== folderKey(b)) return undefined;
  return upperByLetter(a) === upperByLetter(b) ? "macOS and Windows" : "macOS";
}

/** Each letter upper-cased where it has one upper-case letter (`ß` stays: its upper case is `SS`). */
function upperByLetter(name: string): string {
  let upper = "";
  for (const letter of name) {
    const up = letter.toUpperCase();
    upper += [...up].length === 1 ? up : letter;
  }
  return upper;
}

/**
 * A name refused because boxes that exist already have its folder on macOS or Windows:
 * `Demo is no new box's name: the box demo exists, and on macOS and Windows the two would be one
 * folder`. `existing` are those boxes.
 */
export class BoxNameTakenError extends Error {
  readonly boxName: string;
  readonly existing: readonly string[];
  constructor(name: string, existing: readonly string[]) {
    const where = existing.every((other) => sameFolder(name, other) === "macOS and Windows") ? "macOS and Windows" : "macOS";
    const named = existing.map((other) => `${other}${unicodeForm(other, name)}`);
    const boxes = named.length === 1 ? `the box ${named[0]} exists` : `the boxes ${named.slice(0, -1).join(", ")} and ${named.at(-1)} exist`;
    super(`${name} is no new box's name: ${boxes}, and on ${where} ${named.length === 1 ? "the two would" : "they would all"} be one folder`);
    this.name = "BoxNameTakenError";
    this.boxName = name;
    this.existing = existing;
  }
}

/** ` (written in NFD)`: how `other` is written, where it and `name` are written in different Unicode forms (they print alike). */
function unicodeForm(other: string, name: string): string {
  const form = (text: string) => (text.normalize("NFC") === text ? "NFC" : text.normalize("NFD") === text ? "NFD" : "neither NFC nor NFD");
  return form(other) === form(name) ? "" : ` (written in ${form(other)})`;
}

/** Longest name a preview makes: well under the 255 bytes a file name may take. */
const MAX_PREVIEW_NAME = 100;

/**
 * The box a preview runs in: `<scope>-<export>`, made safe. `scope` is the app's name, or
 * `null`/empty for the company's root scope (written `root`). Characters outside
 * `[A-Za-z0-9._-]` become `_`, leading dots are dropped, so the result always passes
 * `checkBoxName`.
 */
export function previewBoxName(scope: string | null | undefined, exportName: string): string {
  const raw = `${scope && scope.length > 0 ? scope : "root"}-${exportName}`;
  let safe = raw.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "");
  if (safe.length > MAX_PREVIEW_NAME) safe = safe.slice(0, MAX_PREVIEW_NAME);
  return safe.length > 0 ? safe : "box";
}
