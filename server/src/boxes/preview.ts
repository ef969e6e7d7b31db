/**
 * Previews (SPEC B5): one exported workflow run in a box named after it, `<scope>-<export>`. The
 * company is synced in (`sync.ts`), then the preview command runs in the box's home: the setting
 * `sanoma.preview.command`, default `${sanoma} preview ${file}#${export}`.
 * `${sanoma}` is the company's own installed Sanoma CLI (`node_modules/.bin/sanoma`, looked for
 * as Node looks for a package: from the company root up), `${file}` (relative to the company
 * root, `/`-separated), `${export}`, `${scope}` and `${root}` (the box's home) are substituted,
 * shell-quoted where they need it.
 *
 * Where the CLI is not installed, a preview of the default command is refused at once, before a
 * box is made: nothing reaches the network (npx would ask the registry). A command of the user's
 * that is missing fails in a way we recognise (exit 127, or npx saying it found no such package)
 * and the run's exit carries a message naming the setting.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { BoxPreviewSource } from "../protocol.ts";

export const DEFAULT_PREVIEW_COMMAND = "${sanoma} preview ${file}#${export}";

export const MISSING_CLI_MESSAGE = "the Sanoma CLI is not installed; set sanoma.preview.command";

/**
 * The company's installed Sanoma CLI: `node_modules/.bin/sanoma` in the company root or the
 * nearest folder above it that has one (a monorepo's hoisted packages), as Node finds packages;
 * undefined when there is none.
 */
export function findSanomaCli(root: string): string | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== "node_modules") {
      const candidate = path.join(dir, "node_modules", ".bin", "sanoma");
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Why a preview of the default command cannot run at `root`: the CLI is not installed there. */
export function missingCliMessage(root: string): string {
  return `the Sanoma CLI is not installed: there is no node_modules/.bin/sanoma in ${root} or a folder above it. Install the Sanoma framework in the company (npm install), or set sanoma.preview.command`;
}

/** The file's scope: its app when it is under `<root>/apps/<app>/`, else `null` (SPEC A2). */
export function scopeOf(root: string, file: string): string | null {
  const rel = relativeFile(root, file).split("/");
  return rel[0] === "apps" && rel.length > 2 && rel[1] && !rel[1].startsWith(".") ? rel[1] : null;
}

/** `file` relative to `root`, `/`-separated; refuses a file outside the company. */
export function relativeFile(root: string, file: string): string {
  const rel = path.relative(root, path.resolve(root, file));
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) throw new Error(`${file} is not a file of the company at ${root}`);
  return rel.split(path.sep).join("/");
}

/** Quotes for bash when the text holds anything but plainly safe characters. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command a preview runs: the template with its `${...}` filled in. Unknown names stay as written. */
export function previewCommand(template: string, values: { file: string; export: string; scope: string | null; root: string; sanoma?: string }): string {
  const table: Record<string, string> = { file: values.file, export: values.export, scope: values.scope ?? "", root: values.root, sanoma: values.sanoma ?? "sanoma" };
  return template.replace(/\$\{(file|export|scope|root|sanoma)\}/g, (_, name: string) => shellQuote(table[name]!));
}

/** Whether a template runs the company's installed CLI (`${sanoma}`). */
export function usesInstalledCli(template: string): boolean {
  return template.includes("${sanoma}");
}

/** Recognises a preview command that is not there; returns the message to show, if it is that. */
export function explainPreviewExit(exitCode: number, stderrTail: string): string | undefined {
  // 127 is bash's "command not found", unless bubblewrap itself failed to set the box up (its own
  // `bwrap: …` line then says why, and no CLI is to blame).
  if (exitCode === 127) return /^bwrap: /m.test(stderrTail) ? undefined : MISSING_CLI_MESSAGE;
  if (exitCode !== 0 && /npx canceled due to missing packages|could not determine executable to run|404 Not Found - GET \S*\/sanoma\b/i.test(stderrTail)) return MISSING_CLI_MESSAGE;
  return undefined;
}

const SOURCE_FILE = "box.json";

/** Remembers where a preview box's files come from, beside the box. */
export function writePreviewSource(runsDir: string, source: BoxPreviewSource): void {
  fs.mkdirSync(runsDir, { recursive: true });
  fs.writeFileSync(path.join(runsDir, SOURCE_FILE), JSON.stringify(source, null, 2) + "\n");
}

export function readPreviewSource(runsDir: string): BoxPreviewSource | undefined {
  try {
    const source = JSON.parse(fs.readFileSync(path.join(runsDir, SOURCE_FILE), "utf8")) as BoxPreviewSource;
    return typeof source?.root === "string" ? source : undefined;
  } catch {
    return undefined;
  }
}
