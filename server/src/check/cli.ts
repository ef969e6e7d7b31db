/**
 * `sanoma-check [dir...]`: every rule over every company under the folders, headless, for CI and
 * scripts. The same Workspace, rules, shared settings (`.sanomarc.json`) and certain fixes as the
 * language server. Output formats are in `formats.ts`; this file reads the flags, runs the check,
 * applies fixes and says the summary.
 */
import * as path from "node:path";
import { z } from "zod";
import { CONFIG_FILE } from "../core/company.ts";
import type { Resolution } from "../core/connectors.ts";
import { isWithin } from "../core/model.ts";
import { Workspace } from "../core/workspace.ts";
import { RULE_IDS } from "../core/rules/index.ts";
import type { CheckOptions } from "../core/check.ts";
import { applyEdits, planFixes } from "../core/fixes.ts";
import { absoluteInCompanies, excludeFor, isAbsoluteExclude, layer, leftOutBelow, leftOutWholeBy, LEVELS, personalBases, personalExclude, personalExcludeFor, readSanomaRc, type Level, type SanomaRc, type SettingsProblem } from "../core/sanomarc.ts";
import { didYouMean } from "../core/text.ts";
import type { FileSystem, Problem, ReadAhead, Severity } from "../core/types.ts";
import { Failpoints, FAILPOINTS_ENV } from "../node/failpoints.ts";
import { unifiedDiff } from "./diff.ts";
import { leftOutText, notCheckedBecause, paint, renderPieces, shownPath, type NotInstalled, type Report } from "./formats.ts";

/** Kept equal to the package's version by a test. */
export const VERSION = "0.1.0";

export const USAGE = `Usage: sanoma-check [dir...] [options]

Checks every Sanoma company (a folder holding sanoma.config.ts) in or under the given folders
(default: the current folder) with every rule of the Sanoma language server. A folder inside a
company checks that whole company. Settings a team shares are read from the nearest
.sanomarc.json at or above each company root; --rule and --exclude are laid over them.

  --format text      one problem a line: file:line:col  severity  rule  message (default); a line
                     break in a message or a path is written \\n, so each problem is one line
  --format json      { companies, problems: [ { file, line, column, endLine, endColumn, severity,
                     rule, message, docs, related, fixes } ], settings, skipped, notInstalled,
                     leftOut: [ { company, by, exclude } ] }
  --format sarif     SARIF 2.1.0 (one run, every rule in the driver), for code scanning
  --format github    GitHub Actions annotations, one per problem
  -f FORMAT          the same as --format FORMAT
  --rule id=level    a rule's severity, as the editor's sanoma.rules setting: off, error, warning
                     (or warn), info or hint (repeatable)
  --exclude folder   a folder to leave out, by name, by its path from a company root or by its
                     absolute path, as the editor's sanoma.exclude setting; a company whose root
                     lies in it is left out whole (repeatable)
  --quiet, -q        errors only (the summary still counts every severity)
  --max-warnings N   exit 1 when there are more than N warnings
  --fix              apply the certain fixes (those the editor marks preferred) and report what is
                     left; a file changed while the check ran is not touched
  --fix-dry-run      print the certain fixes as a unified diff (for git apply) and write nothing
  --verbose, -v      also say, on stderr, which files and folders were skipped and why
  --version          the version
  --help, -h         this text
  --                 the arguments after it are folders, even one starting with -

Paths are printed relative to the current folder (../ where outside it). The summary (on
stderr, last) counts errors, warnings, info and hints, and the files skipped. Colours only on a
terminal; NO_COLOR turns them off, FORCE_COLOR on.
Exit status: 0 without errors, 1 when there is an error (or more warnings than --max-warnings),
2 on bad usage (an unknown option, a folder that does not exist or holds no company) and on an
internal error of sanoma-check itself (said with its stack, to report; the company whose check
failed is named, and no problem of any company is reported).`;

const Args = z.object({
  dirs: z.array(z.string().min(1, "an empty path is no folder")),
  format: z.enum(["text", "json", "sarif", "github"]),
  rules: z.record(z.string(), z.enum(LEVELS as [Level, ...Level[]])),
  exclude: z.array(z.string().min(1, "--exclude takes a folder's name or path")),
  quiet: z.boolean(),
  maxWarnings: z.number().int().nonnegative().optional(),
  fix: z.boolean(),
  fixDryRun: z.boolean(),
  verbose: z.boolean(),
  help: z.boolean(),
  version: z.boolean(),
});
export type Args = z.infer<typeof Args>;

export function parseArgs(argv: string[]): Args | { error: string } {
  const raw = { dirs: [] as string[], format: "text", rules: {} as Record<string, string>, exclude: [] as string[], quiet: false, maxWarnings: undefined as number | undefined, fix: false, fixDryRun: false, verbose: false, help: false, version: false };
  /** An option's value: `--opt value` or `--opt=value`. */
  const valueOf = (a: string, name: string, i: number): [string | undefined, number] | undefined =>
    a === name ? [argv[i + 1], i + 1] : a.startsWith(`${name}=`) ? [a.slice(name.length + 1), i] : undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    // `--` ends the options: a folder may start with `-`.
    if (a === "--") { raw.dirs.push(...argv.slice(i + 1)); break; }
    let v: [string | undefined, number] | undefined;
    if (a === "-f") { raw.format = argv[++i] ?? ""; }
    else if ((v = valueOf(a, "--format", i))) { raw.format = v[0] ?? ""; i = v[1]; }
    else if ((v = valueOf(a, "--rule", i))) {
      i = v[1];
      // (At the first "=": the rest is the level, all of it: `id=off=error` names no level.)
      const value = v[0] ?? "";
      const eq = value.indexOf("=");
      const id = eq < 0 ? value : value.slice(0, eq);
      const given = eq < 0 ? undefined : value.slice(eq + 1);
      const level = given === "warn" ? "warning" : given;
      if (!(RULE_IDS as readonly string[]).includes(id)) {
        const near = didYouMean(id, RULE_IDS);
        return { error: `--rule takes id=level; there is no rule named "${id}"${near ? `; did you mean "${near}"?` : ""}` };
      }
      if (level === undefined || !(LEVELS as readonly string[]).includes(level)) return { error: `--rule ${id}= takes ${LEVELS.join(", ")}, not "${given ?? ""}"` };
      raw.rules[id] = level;
    }
    else if ((v = valueOf(a, "--exclude", i))) {
      i = v[1];
      const read = personalExclude(v[0] ?? "");
      if ("error" in read) return { error: `--exclude takes a folder's name or its path in the company: ${read.error}` };
      raw.exclude.push(read.folder);
    }
    else if ((v = valueOf(a, "--max-warnings", i))) {
      i = v[1];
      const n = v[0] ?? "";
      if (!/^\d+$/.test(n)) return { error: `--max-warnings takes a number of warnings (0 or more), not "${n}"` };
      raw.maxWarnings = Number(n);
    }
    else if (a === "--quiet" || a === "-q") raw.quiet = true;
    else if (a === "--fix") raw.fix = true;
    else if (a === "--fix-dry-run") raw.fixDryRun = true;
    else if (a === "--verbose" || a === "-v") raw.verbose = true;
    else if (a === "--help" || a === "-h") raw.help = true;
    else if (a === "--version") raw.version = true;
    else if (a.startsWith("-")) return { error: `unknown option ${a}` };
    else raw.dirs.push(a);
  }
  if (raw.fix && raw.fixDryRun) return { error: "--fix writes the fixes, --fix-dry-run only shows them: give one of them" };
  if (raw.fixDryRun && raw.format !== "text") return { error: "--fix-dry-run prints a diff: it takes no --format" };
  const parsed = Args.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: issue.path[0] === "format" ? `--format takes text, json, sarif or github, not "${raw.format}"` : issue.message };
  }
  return parsed.data;
}

/** Whether a file is written: "written", or why not ("changed": its text on disk is not the text the fixes were made on). */
export type WriteResult = "written" | "changed" | "failed";

export interface Io {
  fs: FileSystem;
  cwd: string;
  out(text: string): void;
  err(text: string): void;
  now(): number;
  /** The environment (`NO_COLOR`, `FORCE_COLOR`, `TERM`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Whether stdout and stderr are terminals. */
  tty?: { out: boolean; err: boolean };
  /** Files read ahead by another thread (the package's command: node/read-ahead.ts), taken by the first check of a run without fixes. */
  readAhead?: ReadAhead;
  /** Writes `after` to a file whose text is still `before` (read again just before writing). */
  writeIfUnchanged?(file: string, before: string, after: string): WriteResult;
  /** Why a file is not to be fixed at all (a link, bytes that are not UTF-8), or undefined. */
  fixRefusal?(file: string): string | undefined;
  /** Whether a file starts with a byte order mark, which its text as read has not (`--fix-dry-run` shows it in the diff). */
  startsWithByteOrderMark?(file: string): boolean;
}

/**
 * Whether to colour a stream: FORCE_COLOR given wins (`0` or `false`: no colour), then NO_COLOR
 * (any value but empty: none), then a dumb terminal (none), then whether it is a terminal; as
 * Node's own `tty` reads them.
 */
export function colorFor(env: Readonly<Record<string, string | undefined>>, isTty: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === "0" || force === "false");
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTty;
}

interface Run {
  roots: string[];
  problems: Problem[];
  settings: SettingsProblem[];
  skipped: { file: string; reason: string }[];
  /** Packages that declarations call into but that are not installed: how many declarations each (their types unknown, unchecked), and what was found instead. */
  notInstalled: Map<string, NotInstalled>;
  /** The companies found but left out whole (none of their files judged), and by what: the `.sanomarc.json` (undefined: `--exclude`) and its entry. */
  leftOut: { root: string; file: string | undefined; exclude: string }[];
}

/** A company's check that threw (outside any rule: a rule's own throw is an `internal-error` problem): a fault of ours, not a finding. */
class CheckFailed extends Error {
  constructor(readonly root: string, readonly error: unknown) {
    super(`the check of ${root} failed`);
  }
}

/**
 * Checks every company under the folders: what it found, or a usage error. `failpoint`: the
 * `check` failpoint armed (tests only), called inside each company's check.
 */
function checkAll(args: Args, dirs: string[], io: Io, fs: FileSystem, verbose: boolean, { readAhead, failpoint }: { readAhead?: ReadAhead; failpoint?: () => void } = {}): Run | { usage: string } {
  // The disk is the only source of texts here: facts let go of texts they may never parse.
  // What the walk passes over (a FIFO or a name that is not UTF-8 where a source file would be, a
  // folder that cannot be read) goes unjudged as a binary file does: counted and listed alike, not
  // only said by --verbose. A link to one of the company's own folders, read by its own path, or a
  // folder met twice, loses nothing.
  const passedOver = new Map<string, string>();
  const onSkip = (s: { path: string; reason: string }) => {
    if (verbose) io.err(`skipped ${shownPath(io.cwd, s.path)}: ${s.reason}\n`);
    if (!LOSES_NOTHING.test(s.reason)) passedOver.set(s.path, s.reason);
  };
  const ws = new Workspace(fs, { exclude: args.exclude, textOf: (file) => fs.readFile(file), onSkip });
  // The settings of each company found: the file nearest its root (B2), each file read once.
  const rcs = new Map<string, SanomaRc>();
  const rcOfRoot = new Map<string, SanomaRc>();
  const rcOf = (root: string): SanomaRc => {
    let rc = rcOfRoot.get(root);
    if (rc === undefined) {
      const read = readSanomaRc(fs, root, RULE_IDS);
      const key = read.file ?? "";
      if (!rcs.has(key)) rcs.set(key, read);
      rc = rcs.get(key)!;
      rcOfRoot.set(root, rc);
    }
    return rc;
  };
  // An absolute --exclude is the folder it names: a folder there that neither lies in nor holds a
  // company found names nothing to leave out (it was read as a path from each root, in silence).
  // One that is no folder (`/apps/legacy`) is a path from each company root, as it always was.
  const absolute = args.exclude.filter((e) => isAbsoluteExclude(e) && fs.isDir(e));
  if (absolute.length > 0) {
    const every = ws.discoverRoots(dirs, []);
    const stray = absolute.find((e) => !absoluteInCompanies(e, every));
    if (stray !== undefined) return { usage: `--exclude takes a folder's name or its path in the company: "${stray}" lies in no company checked here, nor holds one: it names no folder of theirs` };
  }
  const roots: string[] = [];
  const reals = new Set<string>();
  for (const dir of dirs) {
    // The search leaves out the folders --exclude names (as the server's leaves out those of the
    // editor's sanoma.exclude), and each company it finds goes by its own settings, the file
    // nearest its root (B2): one in a folder they leave out, below the folder searched, is passed
    // over. The file nearest the folder searched decides nothing here: below a folder it leaves
    // out by name may lie companies with a file of their own, which the server and the lint
    // plugin judge (it was asked, and the search skipped them).
    const all = ws.discoverRoots([dir], args.exclude);
    const found = all.filter((root) => {
      const rc = rcOf(root);
      return !leftOutBelow(rc.file, rc.settings.exclude, root, dir);
    });
    if (all.length > 0 && found.length === 0) {
      const [first] = all;
      const by = shownPath(io.cwd, rcOf(first).file!);
      return { usage: `no company to check in or under ${shownPath(io.cwd, dir)}: ${all.length === 1 ? `${shownPath(io.cwd, first)} lies in a folder ${by} leaves out` : `the ${all.length} there lie in folders their .sanomarc.json leaves out (${shownPath(io.cwd, first)}: ${by})`}` };
    }
    if (found.length === 0) {
      // Companies there that --exclude's folders hid from the search (every company of a monorepo
      // under the `companies` it names): said, and by what, as a run says a company left out whole.
      // It said "no sanoma.config.ts", and the user looked for a missing config.
      const hidden = args.exclude.length === 0 ? [] : ws.discoverRoots([dir], []).flatMap((root) => {
        const whole = personalExcludeFor(args.exclude, root, personalBases(root, [dir], (d) => fs.isFile(path.join(d, CONFIG_FILE)))).whole;
        return whole === undefined ? [] : [leftOutText(shownLeftOut(io.cwd, { root, file: undefined, exclude: whole }))];
      });
      if (hidden.length > 0) {
        const more = hidden.length > 3 ? `; ${hidden.length - 3} more` : "";
        return { usage: `no company to check in or under ${shownPath(io.cwd, dir)}: ${hidden.length === 1 ? "the one found there lies in a folder" : `the ${hidden.length} found there lie in folders`} --exclude leaves out (${hidden.slice(0, 3).join("; ")}${more})` };
      }
      return { usage: `no company (no sanoma.config.ts) in, under or above ${shownPath(io.cwd, dir)}` };
    }
    // One company reached by two of the folders (one through a link) is checked once.
    for (const r of found) { const real = fs.realPath(r) ?? r; if (!reals.has(real)) { reals.add(real); roots.push(r); } }
  }
  roots.sort();
  if (verbose) io.err(`companies: ${roots.map((r) => shownPath(io.cwd, r)).join(", ")}\n`);
  const problems: Problem[] = [];
  const skipped: Run["skipped"] = [];
  const notInstalled: Run["notInstalled"] = new Map();
  const leftOut: Run["leftOut"] = [];
  for (const root of roots) {
    const start = io.now();
    const rc = rcOf(root);
    // --exclude's folders, read from each company root around this one and from a folder given
    // that lies in no company (a path there leaves out a company whose root lies in it).
    const own = args.exclude.length > 0 ? personalExcludeFor(args.exclude, root, personalBases(root, dirs, (d) => fs.isFile(path.join(d, CONFIG_FILE)))) : { exclude: [], whole: undefined };
    const mine = layer({ rules: rc.settings.rules, exclude: excludeFor(rc.file, rc.settings.exclude, root) }, { rules: args.rules as Record<string, Level>, exclude: own.exclude });
    if (verbose && rc.file) io.err(`${shownPath(io.cwd, root)}: settings from ${shownPath(io.cwd, rc.file)}\n`);
    // A company left out whole (its own folder given, or a folder at or above the one given left
    // out) is listed and said, not passed as a company with no problem.
    const wholeByFile = leftOutWholeBy(rc.file, rc.settings.exclude, root);
    const whole = wholeByFile !== undefined ? { root, file: rc.file, exclude: wholeByFile } : own.whole !== undefined ? { root, file: undefined, exclude: own.whole } : undefined;
    if (whole) {
      leftOut.push(whole);
      if (verbose) io.err(`${leftOutText(shownLeftOut(io.cwd, whole))}\n`);
    }
    ws.setExclude(root, mine.exclude);
    const syntaxAsked = mine.rules["syntax-error"] !== "off";
    // (Counted for --verbose.)
    let readAheadGiven = 0;
    const ahead: ReadAhead | undefined = readAhead && verbose ? {
      start: (files) => readAhead.start(files),
      take: (file) => { const text = readAhead.take(file); if (text !== undefined) readAheadGiven++; return text; },
      end: () => readAhead.end(),
    } : readAhead;
    let company: ReturnType<Workspace["loadCompany"]>;
    let result: ReturnType<Workspace["check"]>;
    try {
      company = ws.loadCompany(root, { syntaxNow: syntaxAsked, syntaxUnasked: !syntaxAsked, readAhead: ahead });
      result = ws.check(root, { rules: mine.rules as CheckOptions["rules"], failpoint });
    } catch (e) {
      throw new CheckFailed(root, e);
    }
    // (One at a time: a spread of a 150,000-binding lockfile's problems overflows the stack.)
    for (const p of result.problems) problems.push(p);
    for (const f of company.files.values()) if (f.skipped) passedOver.set(f.path, f.skipped);
    // A CI run before the install: those declarations pass unchecked, and the summary says why.
    for (const n of uncheckedIn(result.analysis.declarations)) {
      // (One entry per package and what was found of it: two companies may find one package apart.)
      const { why } = n;
      const key = `${n.package}\0${why?.kind ?? ""}\0${why?.kind === "plug-n-play" ? why.file : why?.kind === "not-built" ? why.entry : ""}`;
      const known = notInstalled.get(key);
      if (known) known.declarations += n.declarations;
      else notInstalled.set(key, n);
    }
    if (verbose) io.err(`${shownPath(io.cwd, root)}: ${company.files.size} files${readAhead ? ` (${readAheadGiven} read ahead by another thread)` : ""}, ${result.problems.length} problems, ${io.now() - start} ms\n`);
  }
  // The problems of the files that hold for the companies found (read by `rcOf` for them alone): a
  // .sanomarc.json below a company root, or one above a company that has a nearer file of its
  // own, holds for none, and the server says nothing of it either.
  const settings = [...rcs.values()].flatMap((rc) => rc.problems);
  for (const [file, reason] of passedOver) skipped.push({ file, reason });
  skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { roots, problems, settings, skipped, notInstalled, leftOut };
}

/**
 * A company's declarations that were not checked, by package: those of a package not found, and
 * those of one found whose exports cannot be followed as far as their names ("unreadable"). A
 * package not found is one entry, whatever each lookup found of it (from the company a package not
 * built, from a connector's real folder under pnpm nothing: a phantom), with the reason that holds
 * first, as one lookup orders them (`resolveModule`): a package found not built, then Yarn's
 * Plug'n'Play, then not installed. Node meets a package's folder before it can say nothing is
 * there, and what is not built must be built first: then a run says what is still not found.
 */
function uncheckedIn(declarations: readonly { resolution: Resolution }[]): NotInstalled[] {
  const byPackage = new Map<string, NotInstalled>();
  const rank = (why: NotInstalled["why"]) => (why?.kind === "not-built" ? 0 : why?.kind === "plug-n-play" ? 1 : 2);
  for (const { resolution: r } of declarations) {
    if (r.kind !== "unresolved" && r.kind !== "unknown") continue;
    const why = r.kind === "unknown" ? { kind: "unreadable" as const } : r.why;
    const key = `${r.module}\0${r.kind}`;
    const known = byPackage.get(key);
    if (!known) { byPackage.set(key, { package: r.module, declarations: 1, ...(why ? { why } : {}) }); continue; }
    known.declarations++;
    if (r.kind === "unresolved" && rank(why) < rank(known.why)) known.why = why;
  }
  return [...byPackage.values()];
}

/** A company left out whole, as the formats print it: its path, and what left it out (a `.sanomarc.json`'s path, or `--exclude`), from the working folder. */
function shownLeftOut(cwd: string, l: Run["leftOut"][number]): { company: string; by: string; exclude: string } {
  return { company: shownPath(cwd, l.root), by: l.file === undefined ? "--exclude" : shownPath(cwd, l.file), exclude: l.exclude };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A folder given by a path that leads out of the working folder but whose real place is inside
 * it (the working folder or the folder reached through a link), spelled from the working folder:
 * its files' paths are then shown from there in every format, as B2 asks.
 */
function spelledFromCwd(io: Io, dir: string): string {
  if (isWithin(io.cwd, dir)) return dir;
  const realCwd = io.fs.realPath(io.cwd);
  const realDir = io.fs.realPath(dir);
  if (realCwd === undefined || !isWithin(realCwd, realDir)) return dir;
  return path.join(io.cwd, path.relative(realCwd, realDir!));
}

/** The folder a diff's paths are from: `cwd` when every file lies under it, else the nearest folder that holds `cwd` and them all. */
export function diffBase(cwd: string, files: readonly string[]): string {
  let base = cwd;
  for (const f of files) {
    while (!isWithin(base, f)) {
      const up = path.dirname(base);
      if (up === base) return cwd; // no folder holds both (another drive): as it was
      base = up;
    }
  }
  return base;
}

/** What the walk says it passed over without losing anything (see `checkAll`). */
const LOSES_NOTHING = /^a link to a folder of the company, read by its own path$|^a folder already visited/;

/** A reason's words for more than one (`binary file` → `binary files`, `link that leads…` → `links that lead…`). */
function manyOf(reason: string): string {
  return reason.replace(/^file name that is\b/, "file names that are").replace(/^(link|folder|file) that (leads|cannot)\b/, (_, what: string, verb: string) => `${what}s that ${verb === "leads" ? "lead" : verb}`)
    .replace(/^no regular file\b/, "no regular files").replace(/\bbinary file\b/, "binary files");
}

/** The summary's words for a reason a file was skipped. */
function shortReason(reason: string): string {
  return reason.replace(/, not read$/, "").replace(/^a /, "");
}

/**
 * The whole run: its exit code. A company's check that throws ends it with exit code 2, its stack
 * and the company said, and nothing reported (a report without that company's problems would read
 * as a clean one, and the exit code of a run that found no error is 0).
 */
export function runCheck(argv: string[], io: Io): number {
  try {
    return checkAndReport(argv, io);
  } catch (e) {
    if (!(e instanceof CheckFailed)) throw e; // (said with its stack by the caller: main.ts)
    io.err(`sanoma-check: internal error: ${(e.error instanceof Error && e.error.stack) || String(e.error)}\n`);
    io.err(`sanoma-check: the check of ${shownPath(io.cwd, e.root)} did not finish, so no problem of any company is reported. This is a fault of sanoma-check's, not a finding in your code: please report it with the stack above.\n`);
    return 2;
  }
}

function checkAndReport(argv: string[], io: Io): number {
  const args = parseArgs(argv);
  if ("error" in args) { io.err(`sanoma-check: ${args.error}\n\n${USAGE}\n`); return 2; }
  if (args.help) { io.out(USAGE + "\n"); return 0; }
  if (args.version) { io.out(`sanoma-check ${VERSION}\n`); return 0; }
  const env = io.env ?? {};
  // (Tests only: node/failpoints.ts. Of its steps, only a company's check is sanoma-check's.)
  const { failpoints, unknown } = Failpoints.parse(env[FAILPOINTS_ENV]);
  if (unknown.length > 0) io.err(`sanoma-check: ${FAILPOINTS_ENV}: no failpoint ${unknown.map((u) => JSON.stringify(u)).join(", ")}\n`);
  const failpoint = failpoints && (() => failpoints.hit("check"));
  const dirs = (args.dirs.length ? args.dirs : ["."]).map((d) => spelledFromCwd(io, path.resolve(io.cwd, d)));
  for (const d of dirs) {
    if (!io.fs.isDir(d)) {
      const what = io.fs.isFile(d) ? "is a file: sanoma-check takes folders" : io.fs.realPath(d) !== undefined ? "is no folder (a FIFO, a device?): sanoma-check takes folders" : "does not exist";
      io.err(`sanoma-check: ${shownPath(io.cwd, d)} ${what}\n`);
      return 2;
    }
  }
  // With fixes to make, the text each file had when it was read is kept: a fix is made on it, and
  // never written over a file whose text moved on since.
  const texts = new Map<string, string>();
  const fixing = args.fix || args.fixDryRun;
  const fs: FileSystem = fixing ? { ...io.fs, readFile(p) { const t = io.fs.readFile(p); if (t !== undefined) texts.set(p, t); return t; } } : io.fs;
  // (Not when fixing: every text read is kept then, through `fs`.)
  let run = checkAll(args, dirs, io, fs, args.verbose, { readAhead: fixing ? undefined : io.readAhead, failpoint });
  if ("usage" in run) { io.err(`sanoma-check: ${run.usage}\n`); return 2; }

  const notes: string[] = [];
  if (fixing) {
    const plan = planFixes(run.problems);
    const after = new Map<string, string>();
    for (const [file, edits] of plan.edits) {
      const before = texts.get(file);
      if (before === undefined) continue;
      const refusal = io.fixRefusal?.(file);
      if (refusal !== undefined) { io.err(`sanoma-check: ${shownPath(io.cwd, file)} ${refusal}\n`); continue; }
      after.set(file, applyEdits(before, edits));
    }
    const fixable = plan.taken.filter((t) => t.fix.edits.every((e) => after.has(e.file)));
    if (args.fixDryRun) {
      // The diff's paths are the working folder's, unless a file lies outside it (run from a
      // folder inside the company): `../` paths neither `git apply` nor `patch` take, so they are
      // from the folder that holds the working folder and every such file then, and that is said.
      const base = diffBase(io.cwd, [...after.keys()]);
      if (base !== io.cwd) io.err(`sanoma-check: the diff's paths are from ${shownPath(io.cwd, base)} (a file it fixes lies outside the working folder): apply it there\n`);
      for (const [file, text] of after) {
        // (The mark the reading dropped, shown on both sides: the diff is of the file as it is.)
        const mark = io.startsWithByteOrderMark?.(file) ? "\ufeff" : "";
        io.out(unifiedDiff(shownPath(base, file).replace(/^\//, ""), mark + texts.get(file)!, mark + text));
      }
      // What would be left: the check again, over the fixed texts.
      const overlay: FileSystem = { ...io.fs, readFile: (p) => after.get(p) ?? io.fs.readFile(p) };
      const again = checkAll(args, dirs, io, overlay, false, { failpoint });
      if (!("usage" in again)) run = again;
      notes.push(`would fix ${plural(fixable.length, "problem", "problems")} in ${plural(after.size, "file", "files")} (nothing written)`);
    } else {
      let fixed = 0;
      const written = new Set<string>();
      for (const [file, text] of after) {
        const result = io.writeIfUnchanged?.(file, texts.get(file)!, text) ?? "failed";
        if (result === "written") written.add(file);
        else io.err(`sanoma-check: ${shownPath(io.cwd, file)} ${result === "changed" ? "changed while sanoma-check ran: not fixed" : "could not be written: not fixed"}\n`);
      }
      for (const t of fixable) if (t.fix.edits.every((e) => written.has(e.file))) fixed++;
      // What is left: the check again, from the disk.
      const again = checkAll(args, dirs, io, io.fs, false, { failpoint });
      if (!("usage" in again)) run = again;
      notes.push(`fixed ${plural(fixed, "problem", "problems")} in ${plural(written.size, "file", "files")}`);
    }
    if (plan.overlapping.length) notes.push(`${plural(plan.overlapping.length, "fix", "fixes")} overlapping another left for a next run`);
    if (args.verbose) for (const t of fixable) io.err(`${args.fixDryRun ? "would fix" : "fix"} ${shownPath(io.cwd, t.problem.file)}:${t.problem.range.start.line + 1}:${t.problem.range.start.character + 1}  ${t.problem.rule}  ${t.fix.title}\n`);
  }

  const count: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const p of run.problems) count[p.severity]++;
  for (const p of run.settings) count[p.severity]++;
  const shown = args.quiet ? run.problems.filter((p) => p.severity === "error") : run.problems;
  const shownSettings = args.quiet ? run.settings.filter((p) => p.severity === "error") : run.settings;
  const outColor = args.format === "text" && colorFor(env, io.tty?.out ?? false);
  const report: Report = { cwd: io.cwd, version: VERSION, companies: run.roots, problems: shown, settings: shownSettings, skipped: run.skipped, notInstalled: [...run.notInstalled].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, n]) => n), leftOut: run.leftOut.map((l) => shownLeftOut(io.cwd, l)), color: outColor };
  if (!args.fixDryRun) for (const piece of renderPieces(args.format, report)) io.out(piece);

  // The summary, last: every severity counted, the files skipped and why.
  const c = colorFor(env, io.tty?.err ?? false);
  const tint = (n: number, f: (s: string) => string, s: string) => (c && n > 0 ? f(s) : s);
  let summary = (notes.length ? `${notes.join("; ")}; left: ` : "") + [
    tint(count.error, paint.red, plural(count.error, "error", "errors")),
    tint(count.warning, paint.yellow, plural(count.warning, "warning", "warnings")),
    `${count.info} info`,
    plural(count.hint, "hint", "hints"),
  ].join(", ") + ` in ${plural(run.roots.length, "company", "companies")}`;
  // (Exit status as what was judged says: the team's file, or the flag, chose to leave them out.)
  if (run.leftOut.length) {
    const said = run.leftOut.slice(0, 3).map((l) => leftOutText(shownLeftOut(io.cwd, l)));
    summary += ` (${said.join("; ")}${run.leftOut.length > 3 ? `; ${run.leftOut.length - 3} more left out whole: --format json lists them` : ""}${run.leftOut.length === run.roots.length ? ": nothing judged" : ""})`;
  }
  if (args.quiet && count.warning + count.info + count.hint > 0) summary += " (errors shown only: --quiet)";
  if (run.skipped.length) {
    const reasons = new Map<string, number>();
    for (const s of run.skipped) reasons.set(shortReason(s.reason), (reasons.get(shortReason(s.reason)) ?? 0) + 1);
    summary += `; ${plural(run.skipped.length, "file", "files")} skipped (${[...reasons].map(([r, n]) => plural(n, r, manyOf(r))).join(", ")})${args.verbose ? "" : ": --verbose lists them"}`;
  }
  if (run.notInstalled.size) {
    const notFound = report.notInstalled!;
    const declarations = notFound.reduce((a, n) => a + n.declarations, 0);
    // Those simply not there named together; one found otherwise (Plug'n'Play, not built) said apart, as it is.
    const absent = notFound.filter((n) => !n.why).map((n) => n.package);
    const clauses = notFound.filter((n) => n.why).map((n) => notCheckedBecause(io.cwd, n));
    if (absent.length) clauses.unshift(`${absent.slice(0, 3).map((m) => `\`${m}\``).join(", ")}${absent.length > 3 ? ` and ${absent.length - 3} more` : ""} ${absent.length === 1 ? "is" : "are"} not installed (install the company's packages first)`);
    summary += `; ${plural(declarations, "declaration", "declarations")} not checked: ${clauses.join("; ")}`;
  }
  const tooManyWarnings = args.maxWarnings !== undefined && count.warning > args.maxWarnings;
  if (tooManyWarnings) summary += `; ${tint(1, paint.red, `more warnings than --max-warnings ${args.maxWarnings}`)}`;
  io.err(summary + "\n");
  return count.error > 0 || tooManyWarnings ? 1 : 0;
}
