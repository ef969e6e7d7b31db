/**
 * Reading ahead for symbol search. Most files are indexed without a syntax tree, and their
 * workflows (which workspace symbols list) are parsed on first use: the first search of a
 * 10,000-file company took 1.5 s. So once the server has had nothing to do for `PRIME_AFTER_MS`
 * after a check, it reads them in slices, stopping as soon as anything else is waiting (the next
 * check schedules it again), as rust-analyzer primes its caches. A file edited later is read
 * lightly again, and read ahead again after its check.
 */
import type { Workspace } from "../core/workspace.ts";
import { BATCH_MS, yieldToRequests } from "./slices.ts";

/** How long the server waits, idle after the last check, before it reads ahead. */
const PRIME_AFTER_MS = 500;

export class ReadAhead {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ws: Workspace, private readonly idle: () => boolean, private readonly log: (message: string) => void) {}

  /** Reads ahead once the server has been idle for `PRIME_AFTER_MS` (called after each check). */
  schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.idle()) { this.schedule(); return; }
      void this.read("ahead of a symbol search", () => !this.idle()).catch((e) => this.log(`reading workflows ahead failed: ${(e as Error).stack}`));
    }, PRIME_AFTER_MS);
    this.timer.unref?.();
  }

  /**
   * Reads the workflows of every company's workflow sources whose syntax tree is not read yet, in
   * slices of `BATCH_MS`, until done or `stop()` holds between two slices. Logs how many it read.
   */
  async read(why: string, stop: () => boolean = () => false): Promise<void> {
    const started = performance.now();
    let read = 0;
    let t = performance.now();
    for (const root of this.ws.companies.keys()) {
      for (const _ of this.ws.readWorkflowsAhead(root)) {
        read++;
        if (performance.now() - t > BATCH_MS) {
          await yieldToRequests();
          if (stop()) return this.done(read, why, started, " (stopped: other work came)");
          t = performance.now();
        }
      }
    }
    this.done(read, why, started, "");
  }

  private done(read: number, why: string, started: number, tail: string): void {
    if (read > 0) this.log(`read the workflows of ${read} file${read === 1 ? "" : "s"} ${why} in ${Math.round(performance.now() - started)} ms${tail}`);
  }
}
