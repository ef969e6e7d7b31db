/**
 * Company roots for a long-lived host (SPEC A1): the nearest folder holding `sanoma.config.ts`,
 * walking up from a file, found with the core's `findCompanyRoot` and a cache that never goes
 * stale across lint runs.
 *
 * The cache works in *observations*. Within one observation each folder's "does it hold a config"
 * is asked of the disk at most once, and each folder's root is computed at most once; a new
 * observation asks again. When an observation ends depends on the host:
 *   - `run`: the oxlint command line lints once and exits, so one observation spans the run (a
 *     config added while a run is under way may or may not be seen by it, as with any linter).
 *     Should a process that is not a one-shot run use it anyway, an observation also ends once
 *     the plugin has been idle for a second.
 *   - `turn`: `oxlint --lsp` lints a file (or a few) per request and gives control back to the
 *     event loop in between, so the observation ends on `setImmediate`.
 *   - `task`: ESLint (CLI, API, editor servers) lints one file per synchronous call, so the
 *     observation ends on a microtask, i.e. after each file.
 * A `sanoma.config.ts` added or removed between two lint requests is therefore always seen by the
 * second, with no watcher and no restart, at the cost of one `stat` per folder on the way up per
 * observation rather than per file.
 */
import * as fs from "node:fs";
import path from "node:path"; // (the default import: a bundle reads its functions as plain properties, not through getters)
import { CONFIG_FILE, findCompanyRoot } from "../../server/src/core/company.ts";

/** When the current observation ends: see above. */
export type ObservationEnd = "run" | "turn" | "task";

/** How long a `run` observation lasts after the plugin's last question. */
const RUN_IDLE_MS = 1000;

/** Earlier ends win: a `task` ends before the next `turn`, which comes before an idle second. */
const URGENCY: Record<ObservationEnd, number> = { run: 0, turn: 1, task: 2 };

interface Memo<T> { observation: number; value: T }

/** Whether `dir` holds a `sanoma.config.ts` file, never throwing (a missing folder holds nothing). */
export function holdsConfig(dir: string): boolean {
  const file = path.join(dir, CONFIG_FILE);
  try {
    // (Most folders hold none: `existsSync` says so without making a `Stats`; a folder named
    // like the config is no config, which only `stat` tells.)
    return fs.existsSync(file) && (fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false);
  } catch {
    return false; // EACCES, ENOTDIR, ELOOP: no config can be read there
  }
}

export class RootCache {
  private observation = 0;
  private open: ObservationEnd | null = null;
  /** When a question was last asked (read at every 64th question), and how many were asked. */
  private lastUse = 0;
  private questions = 0;
  private readonly configs = new Map<string, Memo<boolean>>();
  private readonly roots = new Map<string, Memo<string | undefined>>();
  /** How many times the disk was asked (for tests and the bench). */
  diskChecks = 0;

  constructor(private readonly hasConfig: (dir: string) => boolean = holdsConfig) {}

  /** The company root of a file (absolute path), or undefined (no company, or inside `node_modules`). */
  rootOf(file: string, end: ObservationEnd): string | undefined {
    this.begin(end);
    const dir = path.dirname(file);
    const memo = this.roots.get(dir);
    if (memo?.observation === this.observation) return memo.value;
    const root = findCompanyRoot(file, (d) => this.folderHoldsConfig(d));
    this.roots.set(dir, { observation: this.observation, value: root });
    return root;
  }

  /** Opens an observation (or keeps the open one), as a question would: for callers that keep answers of their own per observation. */
  touch(end: ObservationEnd): void {
    this.begin(end);
  }

  /** Bumped each time an observation ends: answers of an older one are asked again. */
  get currentObservation(): number {
    return this.observation;
  }

  /** Forgets everything (tests). */
  clear(): void {
    this.configs.clear();
    this.roots.clear();
    this.observation++;
  }

  private folderHoldsConfig(dir: string): boolean {
    const memo = this.configs.get(dir);
    if (memo?.observation === this.observation) return memo.value;
    this.diskChecks++;
    const value = this.hasConfig(dir);
    this.configs.set(dir, { observation: this.observation, value });
    return value;
  }

  private begin(end: ObservationEnd): void {
    // The clock is read at every 64th question only (once per file showed in a run's profile):
    // `lastUse` may then be a little older than the last question, so an observation can end a
    // little sooner than an idle second after it, never later.
    if ((++this.questions & 63) === 0) this.lastUse = Date.now();
    if (this.open !== null && URGENCY[this.open] >= URGENCY[end]) return;
    this.lastUse = Date.now();
    this.open = end;
    const observation = this.observation;
    const close = () => { if (this.observation === observation) { this.open = null; this.observation++; } };
    if (end === "task") queueMicrotask(close);
    else if (end === "turn") setImmediate(close);
    else {
      const idle = () => {
        if (this.observation !== observation) return;
        const wait = this.lastUse + RUN_IDLE_MS - Date.now();
        if (wait <= 0) close();
        else setTimeout(idle, wait).unref(); // never keeps a finished run's process alive
      };
      setTimeout(idle, RUN_IDLE_MS).unref();
    }
  }
}
