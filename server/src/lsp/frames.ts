/**
 * The base protocol's framing, checked before vscode-jsonrpc reads it: a header block whose
 * `Content-Length` is no length (`abc`, `-5`, `99999999999999999999`) left its reader waiting for
 * ever at 17% CPU, deaf to every later message, with nothing logged. Here a bad block is logged
 * and passed over, and reading picks up at the next `Content-Length:` header: the frames after it
 * are read as usual. Well-formed frames go through unchanged.
 */
import { Transform, type TransformCallback } from "node:stream";

/** The longest header block read before it is called bad (real ones are a few dozen bytes). */
const MAX_HEADER_BYTES = 8 * 1024;
/** The longest body taken: far above any real message (a 5 MB file's text is one), short of what a bad length asks. */
export const MAX_BODY_BYTES = 512 * 1024 * 1024;

const SEPARATOR = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = Buffer.from("Content-Length:");

export class FrameGuard extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  /** The body length of the frame being read, once its header block was read. */
  private bodyLength: number | undefined;
  /** Chunks come after `buffer` while a body is still short of its length, and their bytes. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly log: (message: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    // A body is joined once it is whole. Joined at every chunk, a 5 MB body (a big file opened in
    // the editor) arriving 64 KB at a time was copied 80 times: 200 MB made and dropped, and the
    // server's peak memory 60 or 350 MB as the collector's timing fell.
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.bodyLength !== undefined && this.buffer.length + this.pendingBytes < this.bodyLength) { done(); return; }
    this.buffer = this.buffer.length === 0 && this.pending.length === 1 ? chunk : Buffer.concat([this.buffer, ...this.pending]);
    this.pending = [];
    this.pendingBytes = 0;
    this.drain();
    done();
  }

  private drain(): void {
    for (;;) {
      if (this.bodyLength === undefined) {
        const end = this.buffer.indexOf(SEPARATOR);
        if (end < 0) {
          if (this.buffer.length > MAX_HEADER_BYTES) this.skipBad(this.buffer.length, `a header block of over ${MAX_HEADER_BYTES} bytes without its end`);
          return;
        }
        const header = this.buffer.subarray(0, end).toString("ascii");
        const length = contentLength(header);
        if (typeof length === "string") { this.skipBad(end + SEPARATOR.length, `${length} in ${JSON.stringify(header.slice(0, 200))}`); continue; }
        this.push(this.buffer.subarray(0, end + SEPARATOR.length));
        this.buffer = this.buffer.subarray(end + SEPARATOR.length);
        this.bodyLength = length;
      }
      if (this.buffer.length < this.bodyLength) return;
      this.push(this.buffer.subarray(0, this.bodyLength));
      this.buffer = this.buffer.subarray(this.bodyLength);
      this.bodyLength = undefined;
    }
  }

  /** Logs a bad header block and passes over it, up to the next `Content-Length:` (or all that was read). */
  private skipBad(upTo: number, why: string): void {
    this.log(`bad message frame passed over: ${why}; reading on from the next Content-Length header`);
    const next = this.buffer.indexOf(CONTENT_LENGTH, 1);
    this.buffer = next >= 0 ? this.buffer.subarray(next) : this.buffer.subarray(upTo);
  }
}

/** A header block's body length, or what is wrong with it. */
export function contentLength(header: string): number | string {
  let length: number | string = "no Content-Length header";
  for (const line of header.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) return `a header line without a name (${JSON.stringify(line.slice(0, 80))})`;
    if (line.slice(0, colon).trim().toLowerCase() !== "content-length") continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,10}$/.test(value) || Number(value) > MAX_BODY_BYTES) return `a Content-Length that is no length (${JSON.stringify(value.slice(0, 40))})`;
    length = Number(value);
  }
  return length;
}
