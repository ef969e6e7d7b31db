/**
 * Failpoints, for tests only (as TiKV's `fail` crate or FoundationDB's buggify): a step named in
 * `SANOMA_FAILPOINTS` throws a real Error at the very place a fault of ours there would, so the
 * path a failure takes (what the editor is told, what `sanoma-check` exits with) is tested over
 * the real process, though no input makes those steps throw. The hosts read the variable once, at
 * their start (`lsp/main.ts`, `check/cli.ts` from the environment it is given), and hold
 * `undefined` when it is unset: a step then costs one check of that (`failpoints?.hit("check")`).
 * The core never reads it: its check takes the failpoint as an option (`CheckOptions.failpoint`).
 *
 *   SANOMA_FAILPOINTS=check          every company check throws
 *   SANOMA_FAILPOINTS=check:1,index  the first check throws, and every indexing
 */

/**
 * The steps that can be made to fail, each where it is hit:
 * - `check`: a company's check, inside the core's check once its analysis is up to date, before
 *   any rule runs (the server's and `sanoma-check`'s);
 * - `index`: the server's reading of a company's files into its index, once they are listed;
 * - `disk`: the server taking a file changed, created or deleted on disk (`Session.diskChanged`:
 *   the client's `didChangeWatchedFiles` and the server's own watchers);
 * - `read`: the server reading a file changed on disk, between requests (`Session.readChanged`);
 * - `edit`: the server taking an editor's text of a file (opened or changed);
 * - `settings`: the server taking the editor's changed settings (`Session.settingsChanged`), once
 *   it has them and before any company is read with them.
 */
export const FAILPOINT_NAMES = ["check", "index", "disk", "read", "edit", "settings"] as const;
export type FailpointName = (typeof FAILPOINT_NAMES)[number];

/** The environment variable the hosts read. */
export const FAILPOINTS_ENV = "SANOMA_FAILPOINTS";

export class Failpoints {
  /** Each armed step and how many more times it throws (Infinity: every time). */
  private readonly left = new Map<FailpointName, number>();

  /**
   * `SANOMA_FAILPOINTS`'s value read: names, comma-separated, each failing every time it is hit,
   * or `name:N` its first N times. `failpoints` is undefined when none is armed; `unknown` lists
   * the entries that name no step (or give no count), for the host to say.
   */
  static parse(value: string | undefined): { failpoints: Failpoints | undefined; unknown: string[] } {
    const unknown: string[] = [];
    const fp = new Failpoints();
    for (const entry of (value ?? "").split(",").map((e) => e.trim()).filter((e) => e !== "")) {
      const m = /^([a-z]+)(?::(\d+))?$/.exec(entry);
      if (!m || !(FAILPOINT_NAMES as readonly string[]).includes(m[1])) { unknown.push(entry); continue; }
      fp.arm(m[1] as FailpointName, m[2] === undefined ? Infinity : Number(m[2]));
    }
    return { failpoints: fp.left.size > 0 ? fp : undefined, unknown };
  }

  /** Arms a step to throw its next `times` hits (Infinity: every one). */
  arm(name: FailpointName, times = Infinity): void {
    if (times > 0) this.left.set(name, times); else this.left.delete(name);
  }

  /** At a step armed and not used up: throws the Error a fault there would be. */
  hit(name: FailpointName): void {
    const left = this.left.get(name);
    if (left === undefined) return;
    if (left <= 1) this.left.delete(name); else this.left.set(name, left - 1);
    throw new Error(`failpoint ${name}: a fault made on purpose (${FAILPOINTS_ENV}, for tests only)`);
  }

  /** The steps armed, as `SANOMA_FAILPOINTS` writes them (for the log). */
  toString(): string {
    return [...this.left].map(([name, n]) => (n === Infinity ? name : `${name}:${n}`)).join(",");
  }
}
