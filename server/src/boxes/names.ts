/**
 * Box names (SPEC B4): which names are refused, and how a preview's `<scope>-<export>` becomes one.
 * A box's name is also the name of its folder under the boxes directory, so a name must never
 * reach another folder: no separators, no `..`, and nothing starting with `.` (the boxes
 * directory keeps its own bookkeeping in dot folders such as `.runs`).
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
