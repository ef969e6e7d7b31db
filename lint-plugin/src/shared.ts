/**
 * `.sanomarc.json` as the plugin reads it: the core's `readSanomaRc` (the very reading of the
 * language server and `sanoma-check`), over the disk. A rule the file turns `off` reports nothing
 * in that company; the folders it leaves out are not linted by the rules (as `sanoma-check` does
 * not read them). Other levels are the host's to set (`.oxlintrc.json`, `eslint.config.js`): a
 * plugin cannot choose the severity its host reports.
 *
 * Rule ids are not judged here (the plugin bundles the import rules only, not the registry): an
 * unknown id is said by the editor and `sanoma-check`. The file's other problems (not JSON, a
 * level that is none) are written once to stderr, and the rest of the file still holds.
 */
import { excludeFor, readSanomaRc, WHOLE_COMPANY, type SanomaRc } from "../../server/src/core/sanomarc.ts";
import { nodeFileSystem } from "../../server/src/node/fs.ts";
import { oneLine } from "../../server/src/core/text.ts";

export interface Shared {
  /** The rules turned off. */
  off: ReadonlySet<string>;
  /** Folder names left out anywhere in the company. */
  names: ReadonlySet<string>;
  /** Company-relative folder paths left out, with what lies under them. */
  paths: readonly string[];
  /** The company is left out whole: its root lies in a folder the settings leave out (`WHOLE_COMPANY`). */
  whole: boolean;
}

export const NO_SHARED: Shared = { off: new Set(), names: new Set(), paths: [], whole: false };

const said = new Set<string>();

/** The shared settings of a company root, read from the disk now. */
export function readShared(root: string, read: (root: string) => SanomaRc = (r) => readSanomaRc(nodeFileSystem, r)): Shared {
  let rc: SanomaRc;
  try { rc = read(root); } catch { return NO_SHARED; } // (the reading never throws; a host is never taken down anyway)
  for (const p of rc.problems) {
    // One line each, as sanoma-check writes them: a key or a value quoted in the message may hold a
    // line break (a forged line after it) or a terminal's control sequence.
    const line = `sanoma: ${oneLine(p.file)}:${p.range.start.line + 1}:${p.range.start.character + 1}: ${oneLine(p.message)}\n`;
    if (said.has(line)) continue;
    said.add(line);
    try { process.stderr.write(line); } catch { /* no stderr */ }
  }
  if (rc.file === undefined) return NO_SHARED;
  const off = new Set(Object.entries(rc.settings.rules).filter(([, level]) => level === "off").map(([id]) => id));
  const exclude = excludeFor(rc.file, rc.settings.exclude, root);
  const whole = exclude.includes(WHOLE_COMPANY);
  return { off, names: new Set(exclude.filter((e) => !e.includes("/") && e !== WHOLE_COMPANY)), paths: exclude.filter((e) => e.includes("/")), whole };
}

/** Whether a folder at `rel` in its company (`""` for the root) is left out. */
export function excludes(shared: Shared, rel: string): boolean {
  if (shared.whole) return true;
  if (shared.names.size === 0 && shared.paths.length === 0) return false;
  if (rel === "") return false;
  for (const part of rel.split("/")) if (shared.names.has(part)) return true;
  for (const p of shared.paths) if (rel === p || rel.startsWith(p + "/")) return true;
  return false;
}
