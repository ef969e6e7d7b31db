/**
 * The recent events the extension keeps per box, to replay into a terminal that opens after a
 * run began: bounded by count and by the bytes of output they hold. By count alone, a box whose
 * runs printed 60 MB each kept 60 MB more after every run (5,000 chunks of up to 64 KiB: some
 * 300 MB a box). A late terminal pages the rest from the server (`sanoma/boxes/events`).
 */
import type { BoxEvent } from "../../server/src/protocol.ts";

export const KEPT_EVENTS_PER_BOX = 5_000;
export const KEPT_OUTPUT_BYTES_PER_BOX = 4 * 1024 * 1024;

/** A box's recent events, oldest first, with the output bytes they hold. */
export class RecentEvents {
  private events: BoxEvent[] = [];
  private bytes = 0;

  constructor(private readonly maxEvents = KEPT_EVENTS_PER_BOX, private readonly maxBytes = KEPT_OUTPUT_BYTES_PER_BOX) {}

  add(event: BoxEvent): void {
    this.events.push(event);
    this.bytes += sizeOf(event);
    let drop = 0;
    let bytes = this.bytes;
    while (drop < this.events.length - 1 && (this.events.length - drop > this.maxEvents || bytes > this.maxBytes)) bytes -= sizeOf(this.events[drop++]!);
    if (drop > 0) { this.events.splice(0, drop); this.bytes = bytes; }
  }

  of(runId: string): BoxEvent[] {
    return this.events.filter((e) => e.runId === runId);
  }

  get size(): { events: number; bytes: number } {
    return { events: this.events.length, bytes: this.bytes };
  }
}

const sizeOf = (e: BoxEvent): number => (e.kind === "output" ? e.text.length * 2 : 0);
