/**
 * Which of a company's files a preview copies (SPEC B5): never `node_modules`, `.git` or any folder
 * whose name starts with `.`, nor what the company's `.gitignore` files ignore. The `.gitignore`
 * reading covers what companies write in practice: comments, blank lines, `!` negation, a leading
 * or inner `/` anchoring to the file's folder, a trailing `/` for folders only, `*`, `?`, `[...]`
 * and `**`. `.gitignore` files of folders above the company, up to the repository root, count too.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Folder names never copied into a box, whatever `.gitignore` says. */
export function isSkippedFolder(name: string): boolean {
  return name === "node_modules" || name.startsWith(".");
}

/**
 * Names never synced, listed or applied, whatever kind of entry holds them and at any depth: a
 * `.git` file (a worktree's `gitdir: …`) or link would let a box repoint the user's repository at
 * a config that runs its commands (`core.fsmonitor`), and a `node_modules` link or folder holds
 * code the user's tools run. Any letter case: a case-insensitive file system (macOS, Windows)
 * takes `.GIT` for `.git`.
 */
export function isNeverCopied(name: string): boolean {
  if (name.length === 4) return name.toLowerCase() === ".git";
  return name.length === 12 && name.toLowerCase() === "node_modules";
}

interface Pattern {
  /** The folder the `.gitignore` sits in, relative to the walk's root (`""` for the root and above). */
  base: string;
  /** For a `.gitignore` above the root: the root's path seen from its folder (`company`), else `""`. */
  prefix: string;
  /** Matches the path seen from the `.gitignore`'s folder (`prefix/rel`, or `rel` below `base`). */
  regex: RegExp;
  negated: boolean;
  folderOnly: boolean;
  /**
   * For the common patterns without a slash (`dist`, `*.log`, `.env.*`), which only ever match the
   * last segment: that segment's test by plain string comparison, so the walk runs no regular
   * expression for them. Same answers as `regex`.
   */
  name?: { equals?: string; endsWith?: string; startsWith?: string };
}

/** Patterns from the `.gitignore` files met so far; a child folder extends its parent's. */
export class IgnoreRules {
  private constructor(private readonly patterns: Pattern[]) {}

  static empty(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /**
   * The rules that folders above `root` lay on it: their `.gitignore` files up to the repository's
   * root (the nearest folder holding `.git`), none when `root` is not inside a repository or is
   * its root. The walk adds `root`'s own file and those below.
   */
  static above(root: string): IgnoreRules {
    const resolved = path.resolve(root);
    const chain: string[] = [];
    let found = fs.existsSync(path.join(resolved, ".git"));
    for (let dir = path.dirname(resolved); !found; ) {
      chain.unshift(dir);
      if (fs.existsSync(path.join(dir, ".git"))) found = true;
      else if (path.dirname(dir) === dir) return IgnoreRules.empty();
      else dir = path.dirname(dir);
    }
    let rules = IgnoreRules.empty();
    for (const dir of chain) rules = rules.withFile(dir, "", path.relative(dir, resolved).split(path.sep).join("/"));
    return rules;
  }

  /**
   * These rules plus the `.gitignore` in `dir`, if any: `base` is `dir` relative to the root, or
   * `prefix` the root relative to `dir` when `dir` is above it.
   */
  withFile(dir: string, base: string, prefix = ""): IgnoreRules {
    let text: string;
    try {
      text = fs.readFileSync(path.join(dir, ".gitignore"), "utf8");
    } catch {
      return this;
    }
    const added = parseGitignore(text, base, prefix);
    return added.length === 0 ? this : new IgnoreRules([...this.patterns, ...added]);
  }

  /**
   * Whether `rel` (relative to the root, `/`-separated) is ignored; the last matching pattern wins.
   * `name` is `rel`'s last segment (the walk has it at hand).
   */
  ignores(rel: string, isFolder: boolean, name = rel.slice(rel.lastIndexOf("/") + 1)): boolean {
    let ignored = false;
    for (const pattern of this.patterns) {
      if (pattern.folderOnly && !isFolder) continue;
      if (ignored !== pattern.negated) continue; // it could not change the answer
      if (pattern.base !== "" && !isBeneath(pattern.base, rel)) continue; // not beneath its .gitignore
      const matched = pattern.name ? matchesName(pattern.name, name) : pattern.regex.test(localPath(pattern, rel));
      if (matched) ignored = !pattern.negated;
    }
    return ignored;
  }
}

/** Whether `rel` is inside the folder `base` (both relative to the root), without a string made. */
function isBeneath(base: string, rel: string): boolean {
  return rel.length > base.length + 1 && rel.charCodeAt(base.length) === 47 /* / */ && rel.startsWith(base);
}

/** `rel` seen from the pattern's `.gitignore` (which `rel` is known to be beneath). */
function localPath(pattern: Pattern, rel: string): string {
  if (pattern.prefix) return `${pattern.prefix}/${rel}`;
  return pattern.base === "" ? rel : rel.slice(pattern.base.length + 1);
}

function matchesName(test: NonNullable<Pattern["name"]>, name: string): boolean {
  if (test.equals !== undefined) return name === test.equals;
  if (test.endsWith !== undefined) return name.endsWith(test.endsWith);
  return name.startsWith(test.startsWith!);
}

/**
 * The plain-string test of a pattern without a slash, when it is a literal name (`dist`), `*`
 * then a literal (`*.log`) or a literal then `*` (`.env.*`); undefined for anything else.
 */
function nameTest(glob: string): Pattern["name"] {
  const star = glob.indexOf("*");
  const literal = star < 0 ? glob : star === 0 ? glob.slice(1) : star === glob.length - 1 ? glob.slice(0, -1) : undefined;
  if (literal === undefined || literal === "" || /[*?[\\/]/.test(literal)) return undefined;
  if (star < 0) return { equals: literal };
  return star === 0 ? { endsWith: literal } : { startsWith: literal };
}

export function parseGitignore(text: string, base: string, prefix = ""): Pattern[] {
  const out: Pattern[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    line = line.replace(/(?<!\\)\s+$/, "");
    if (line === "") continue;
    let negated = false;
    if (line.startsWith("!")) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) line = line.slice(1);
    let folderOnly = false;
    if (line.endsWith("/")) {
      folderOnly = true;
      line = line.slice(0, -1);
    }
    // A slash at the start or in the middle anchors the pattern to the .gitignore's folder.
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line === "") continue;
    const body = globToRegex(line);
    const name = anchored ? undefined : nameTest(line);
    out.push({ base, prefix, negated, folderOnly, regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`), ...(name ? { name } : {}) });
  }
  return out;
}

function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/";
        const atSegmentEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (atSegmentStart && atSegmentEnd) {
          if (i + 2 === glob.length) out += ".*";
          else {
            out += "(?:.*/)?";
            i++; // the slash after `**`
          }
          i++;
          continue;
        }
      }
      out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) out += "\\[";
      else {
        let set = glob.slice(i + 1, close).replace(/\\/g, "\\\\");
        if (set.startsWith("!")) set = "^" + set.slice(1);
        out += `[${set}]`;
        i = close;
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[++i]!);
    } else out += escapeRegex(c);
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
