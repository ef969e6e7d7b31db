/**
 * `sanoma-check [dir...] [--format text|json] [--verbose]`: every rule over every company under
 * the folders, headless. The same Workspace and rules as the language server.
 */
import * as path from "node:path";
import { z } from "zod";
import { Workspace } from "../core/workspace.ts";
import type { FileSystem, Problem } from "../core/types.ts";

export const USAGE = `Usage: sanoma-check [dir...] [--format text|json] [--verbose]

Checks every Sanoma company (a folder holding sanoma.config.ts) under the given folders
(default: the current folder) with every rule of the Sanoma language server.

  --format text   one problem a line: file:line:col  severity  rule  message (default)
  --format json   { "problems": [ { file, line, column, endLine, endColumn, severity, rule, message } ] }
  --verbose       also say, on stderr, which files and folders were skipped and why
  --help          this text
  --              the arguments after it are folders, even one starting with -

A company reached by two paths (a symlink) is checked once. No company found is said on stderr.
Exit status: 0 without errors (no company found included), 1 when there is an error, 2 on bad usage.`;

const Args = z.object({
  dirs: z.array(z.string().min(1)),
  format: z.enum(["text", "json"]),
  verbose: z.boolean(),
  help: z.boolean(),
});
export type Args = z.infer<typeof Args>;

export function parseArgs(argv: string[]): Args | { error: string } {
  const raw = { dirs: [] as string[], format: "text", verbose: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    // `--` ends the options: a folder may start with `-`.
    if (a === "--") { raw.dirs.push(...argv.slice(i + 1)); break; }
    if (a === "--format" || a === "-f") { raw.format = argv[++i] ?? ""; }
    else if (a.startsWith("--format=")) raw.format = a.slice(9);
    else if (a === "--verbose" || a === "-v") raw.verbose = true;
    else if (a === "--help" || a === "-h") raw.help = true;
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
  const dirs = (args.dirs.length ? args.dirs : ["."]).map((d) => path.resolve(io.cwd, d));
  for (const d of dirs) if (!io.fs.isDir(d)) { io.err(`sanoma-check: ${d} is not a folder\n`); return 2; }
  const ws = new Workspace(io.fs, { onSkip: args.verbose ? (s) => io.err(`skipped ${s.path}: ${s.reason}\n`) : undefined });
  const roots = ws.discoverRoots(dirs);
  if (args.verbose) io.err(`companies: ${roots.length ? roots.join(", ") : "none"}\n`);
  const problems: Problem[] = [];
  for (const root of roots) {
    const start = io.now();
    ws.loadCompany(root);
    const result = ws.check(root);
    problems.push(...result.problems);
    if (args.verbose) io.err(`${root}: ${ws.companies.get(root)!.files.size} files, ${result.problems.length} problems, ${io.now() - start} ms\n`);
  }
  // No company: said on stderr in either format (a mistyped path in CI should not pass unseen).
  if (args.format === "json" && roots.length === 0) io.err(`sanoma-check: no company (no sanoma.config.ts) under ${dirs.join(", ")}\n`);
  if (args.format === "json") {
    io.out(JSON.stringify({ problems: problems.map((p) => ({
      file: p.file, line: p.range.start.line + 1, column: p.range.start.character + 1,
      endLine: p.range.end.line + 1, endColumn: p.range.end.character + 1,
      severity: p.severity, rule: p.rule, message: p.message,
    })) }, null, 2) + "\n");
  } else {
    for (const p of problems) {
      const rel = path.relative(io.cwd, p.file);
      const shown = rel.startsWith("..") ? p.file : rel;
      io.out(`${shown}:${p.range.start.line + 1}:${p.range.start.character + 1}  ${p.severity}  ${p.rule}  ${p.message}\n`);
    }
    const errors = problems.filter((p) => p.severity === "error").length;
    const warnings = problems.filter((p) => p.severity === "warning").length;
    if (roots.length === 0) io.err(`sanoma-check: no company (no sanoma.config.ts) under ${dirs.join(", ")}\n`);
    else io.err(`${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"} in ${roots.length} compan${roots.length === 1 ? "y" : "ies"}\n`);
  }
  return problems.some((p) => p.severity === "error") ? 1 : 0;
}
