/**
 * When checks run, and what they publish. A change marks its company dirty; checks run once the
 * messages already received are handled (`setImmediate`), so a burst of edits costs one check;
 * each runs in time slices, and publishes diagnostics only for the files whose problems it
 * recomputed. A company changed while its check runs is checked again when that one ends. A
 * company's check may wait for the files changed on disk queued by the time it was first due (the
 * messages then received handled: a notification's files all), never for those queued since
 * (`Waits`): a build rewriting files faster than they are read holds it up for one round of reads
 * at most, not for as long as it writes; an edit's check, likewise. A check that throws (a fault
 * of ours) publishes nothing: the session is told (`failed`: a note on the company's config), and
 * the company's next check, which judges every file again, publishes every file under its root.
 */
import * as path from "node:path";
import type { CheckResult } from "../core/check.ts";
import { SANOMARC } from "../core/sanomarc.ts";
import type { Workspace } from "../core/workspace.ts";
import type { Failpoints } from "../node/failpoints.ts";
import type { Publisher } from "./publisher.ts";
import { checkOptions, type Settings } from "./settings.ts";
import { inSlices } from "./slices.ts";

/** What the checks need of a company's state in the session. */
export interface Checked {
  indexed: boolean;
  settings: Settings;
  result?: CheckResult;
  /** Its last check threw: the next one publishes every file under its root (the core's checker started over). */
  checkFailed?: boolean;
}

/** What a company's check waits for before it runs (files changed on disk not read yet: session.ts). */
export interface Waits {
  /** How far the changes queued now go (increasing): taken when a dirty company's check is first due. */
  mark(): number;
  /** Whether the check of a company dirty since `mark` gave `since` still waits (changes queued by then not all read); `schedule` once it need not. */
  waits(root: string, since: number): boolean;
}

const NO_WAITS: Waits = { mark: () => 0, waits: () => false };

export class Checks {
  /** The companies to check, each with the `Waits.mark` of when its check was first due (undefined: not yet). */
  private readonly dirty = new Map<string, number | undefined>();
  private scheduled = false;
  /** Checks under way (suspended between time slices), by company root. */
  private readonly running = new Map<string, Promise<void>>();
  lastCheckMs: number | undefined;
  lastCheckAt: number | undefined;

  constructor(
    private readonly ws: Workspace,
    private readonly publisher: Publisher,
    private readonly stateOf: (root: string) => Checked | undefined,
    /** Told when the checks' business may have changed, and after each check published (the status). */
    private readonly changed: () => void,
    private readonly log: (message: string) => void,
    /** Told after a company's check published (what its connector reading went into is known then). */
    private readonly published: (root: string) => void = () => {},
    /** What a company's check waits for (files changed on disk not read again yet: session.ts). */
    private readonly waits: Waits = NO_WAITS,
    /** Told when a company's check threw (its stack is logged): nothing of it was published. */
    private readonly failed: (root: string, error: unknown) => void = () => {},
    /** The failpoints armed (tests only: `check` throws inside the core's check). */
    private readonly failpoints?: Failpoints,
  ) {}

  /** Whether a check is pending or running: the diagnostics on screen may change. */
  get busy(): boolean {
    return this.dirty.size > 0 || this.scheduled || this.running.size > 0;
  }

  /** The company changed: it is checked soon. */
  markDirty(root: string): void {
    // (Already dirty, it keeps its mark: what is queued since does not hold its check up.)
    if (!this.dirty.has(root)) this.dirty.set(root, undefined);
    this.schedule();
  }

  /** Checks run once the messages already received are handled, so a burst of edits costs one check. */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // (Once nothing is scheduled, the status may say idle: a check done within its first slice
    // published before this ran, while it still said busy.)
    setImmediate(() => { this.scheduled = false; void this.flush().then(this.changed); });
  }

  /** Starts a check of every dirty company that is indexed; resolves when they are done. */
  flush(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const [root, marked] of this.dirty) {
      const st = this.stateOf(root);
      if (!st?.indexed || !this.ws.companies.has(root)) { if (!this.ws.companies.has(root)) this.dirty.delete(root); continue; }
      const since = marked ?? this.waits.mark();
      if (marked === undefined) this.dirty.set(root, since);
      if (this.waits.waits(root, since)) continue; // it stays dirty: checked once what it waits for is read
      const running = this.running.get(root);
      if (running) { waits.push(running); continue; } // it stays dirty: checked again when that one ends
      this.dirty.delete(root);
      waits.push(this.check(root, st));
    }
    return Promise.all(waits).then(() => undefined);
  }

  /**
   * Checks a company in time slices, so a big company's first check never keeps a request waiting
   * long; an edit's check is done in its first slice.
   */
  private check(root: string, st: Checked): Promise<void> {
    const start = performance.now();
    const company = this.ws.companies.get(root);
    const fp = this.failpoints;
    const options = fp ? { ...checkOptions(st.settings), failpoint: () => fp.hit("check") } : checkOptions(st.settings);
    let failure: { error: unknown } | undefined;
    const done = inSlices(this.ws.checkSteps(root, options))
      .catch((e): undefined => { this.log(`check of ${root} failed: ${(e as Error).stack ?? e}`); failure = { error: e }; return undefined; })
      .then((result) => {
        this.running.delete(root);
        // A company dissolved or re-indexed meanwhile: what was found of the old one is not published.
        const current = this.stateOf(root) === st && this.ws.companies.get(root) === (result?.analysis.company ?? company);
        if (result && current) this.publish(root, st, result, start);
        else if (failure && current) { st.checkFailed = true; this.failed(root, failure.error); }
        if (this.dirty.has(root)) this.schedule();
      });
    this.running.set(root, done);
    return done;
  }

  private publish(root: string, st: Checked, result: CheckResult, start: number): void {
    const previous = st.result;
    st.result = result;
    // Publish for the files whose problems the check recomputed. The first check of a company
    // object (a new company, or one re-indexed after a settings change or a re-check) recomputes
    // every file it has problems for; what was published before under its root is cleared too. The
    // check after one that threw does the same (the core's checker started over).
    const files = new Set(result.changedFiles);
    if (previous?.analysis.company !== result.analysis.company || st.checkFailed) {
      st.checkFailed = false;
      for (const file of this.publisher.filesUnder(root)) if (path.basename(file) !== SANOMARC && this.ws.rootOf(file) === root) files.add(file);
    }
    for (const file of files) this.publisher.problems(file, result.problemsByFile.get(file));
    this.lastCheckMs = Math.round((performance.now() - start) * 10) / 10;
    this.lastCheckAt = Date.now();
    this.published(root);
    this.changed();
  }
}
