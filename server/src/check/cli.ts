/**
 * `sanoma-check [dir...] [--format text|json] [--verbose]`: every rule over every company under
 * the folders, headless. The same Workspace and rules as the language server.
 */
import * as path from "node:path";
import { z } from "zod";
import { Workspace } from "../core/workspace.ts";
import { RULE_IDS } from "../core/rules/index.ts";
import type { CheckOptions } from "../core/check.ts";
import type { FileSystem, Problem } from "../core/types.ts";

/** Kept equal to the package's version by a test. */
export const VERSION = "0.1.0";

export const USAGE = `Usage: sanoma-check [dir...] [--format text|json] [--rule id=level]... [--exclude folder]... [--verbose]

Checks every Sanoma company (a folder holding sanoma.config.ts) under the given folders
(default: the current folder) with every rule of the Sanoma language server. A folder inside a
company checks that whole company.

  --format text   one problem a line: file:line:col  severity  rule  message (default); a line
                  break in a message or a path is written \\n, so each problem is one line
  --format json   { "companies": [ root, ... ], "problems": [ { file, line, column, endLine,
                  endColumn, severity, rule, message } ] }
  --rule id=level a rule's severity, as the editor's sanoma.rules setting: off, error, warning,
                  info or hint (repeatable)
  --exclude name  a folder to leave out, by name or by its path in the company, as the editor's
                  sanoma.exclude setting (repeatable)
  --verbose       also say, on stderr, which files and folders were skipped and why
  --version       the version
  --help          this text
  --              the arguments after it are folders, even one starting with -

A company reached by two paths (a symlink) is checked once. No company found is said on stderr.
Exit status: 0 without errors (no company found included), 1 when there is an error, 2 on bad usage.`;

const LEVELS = ["off", "error", "warning", "info", "hint"] as const;

const Args = z.object({
  dirs: z.array(z.string().min(1, "an empty path is no folder")),
  format: z.enum(["text", "json"]),
  rules: z.record(z.string(), z.enum(LEVELS)),
  exclude: z.array(z.string().min(1, "--exclude takes a folder's name or path")),
  verbose: z.boolean(),
  help: z.boolean(),
  version: z.boolean(),
});
export type Args = z.infer<typeof Args>;

export function parseArgs(argv: string[]): Args | { error: string } {
  const raw = { dirs: [] as string[], format: "text", rules: {} as Record<string, string>, exclude: [] as string[], verbose: false, help: false, version: false };
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
      const [id, level] = (v[0] ?? "").split("=");
      if (!(RULE_IDS as readonly string[]).includes(id)) return { error: `--rule takes id=level; there is no rule named "${id}"` };
      if (!(LEVELS as readonly string[]).includes(level)) return { error: `--rule ${id}= takes ${LEVELS.join(", ")}, not "${level ?? ""}"` };
      raw.rules[id] = level;
    }
    else if ((v = valueOf(a, "--exclude", i))) { raw.exclude.push(v[0] ?? ""); i = v[1]; }
    else if (a === "--verbose" || a === "-v") raw.verbose = true;
    else if (a === "--help" || a === "-h") raw.help = true;
    else if (a === "--version") raw.version = true;
    else if (a.startsWith("-")) return { error: `unknown option ${a}` };
    else raw.dirs.push(a);
  }
  const parsed = Args.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: issue.path[0] === "format" ? `--format takes text or json, not "${raw.format}"` : issue.message };
  }
  return parsed.data;
}

/** A message or a path on one line of text output: its line breaks written as escapes. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]/g, (c) => (c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\u2028" ? "\\u2028" : "\\u2029"));
}

export interface Io {
  fs: FileSystem;
  cwd: string;
  out(text: string): void;
  err(text: string): void;
  now(): number;
}

export function runCheck(argv: string[], io: Io): number {
  const args = parseArgs(argv);
  if ("error" in args) { io.err(`sanoma-check: ${args.error}\n\n${USAGE}\n`); return 2; }
  if (args.help) { io.out(USAGE + "\n"); return 0; }
  if (args.version) { io.out(`sanoma-check ${VERSION}\n`); return 0; }
  const dirs = (args.dirs.length ? args.dirs : ["."]).map((d) => path.resolve(io.cwd, d));
  for (const d of dirs) if (!io.fs.isDir(d)) { io.err(`sanoma-check: ${d} is not a folder\n`); return 2; }
  const ws = new Workspace(io.fs, { exclude: args.exclude, onSkip: args.verbose ? (s) => io.err(`skipped ${s.path}: ${s.reason}\n`) : undefined });
  const options: CheckOptions = { rules: args.rules as CheckOptions["rules"] };
  const roots = ws.discoverRoots(dirs);
  if (args.verbose) io.err(`companies: ${roots.length ? roots.join(", ") : "none"}\n`);
  const problems: Problem[] = [];
  for (const root of roots) {
    const start = io.now();
    ws.loadCompany(root);
    const result = ws.check(root, options);
    // (One at a time: a spread of a 150,000-binding lockfile's problems overflows the stack.)
    for (const p of result.problems) problems.push(p);
    if (args.verbose) io.err(`${root}: ${ws.companies.get(root)!.files.size} files, ${result.problems.length} problems, ${io.now() - start} ms\n`);
  }
  // No company: said on stderr in either format (a mistyped path in CI should not pass unseen).
  if (args.format === "json" && roots.length === 0) io.err(`sanoma-check: no company (no sanoma.config.ts) under ${dirs.join(", ")}\n`);
  if (args.format === "json") {
    io.out(JSON.stringify({ companies: roots, problems: problems.map((p) => ({
      file: p.file, line: p.range.start.line + 1, column: p.range.start.character + 1,
      endLine: p.range.end.line + 1, endColumn: p.range.end.character + 1,
      severity: p.severity, rule: p.rule, message: p.message,
    })) }, null, 2) + "\n");
  } else {
    for (const p of problems) {
      const rel = path.relative(io.cwd, p.file);
      const shown = rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) ? p.file : rel;
      io.out(`${oneLine(shown)}:${p.range.start.line + 1}:${p.range.start.character + 1}  ${p.severity}  ${p.rule}  ${oneLine(p.message)}\n`);
    }
    const errors = problems.filter((p) => p.severity === "error").length;
    const warnings = problems.filter((p) => p.severity === "warning").length;
    if (roots.length === 0) io.err(`sanoma-check: no company (no sanoma.config.ts) under ${dirs.join(", ")}\n`);
    else io.err(`${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"} in ${roots.length} compan${roots.length === 1 ? "y" : "ies"}\n`);
  }
  return problems.some((p) => p.severity === "error") ? 1 : 0;
}
