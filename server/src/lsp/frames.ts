/**
 * The base protocol's framing, checked before vscode-jsonrpc reads it: a header block whose
 * `Content-Length` is no length (`abc`, `-5`, `99999999999999999999`) left its reader waiting for
 * ever at 17% CPU, deaf to every later message, with nothing logged. Here a bad block is logged
 * and passed over, and reading picks up at the next `Content-Length:` header: the frames after it
 * are read as usual. Well-formed frames go through unchanged.
 *
 * A body nested deeper than any LSP message is (`[[[[…]]]]` thousands deep, 10 KB) is passed over
 * too: vscode-jsonrpc, finding no request in it, writes it back whole with `JSON.stringify`, whose
 * recursion overflowed the stack and ended the server (or, a little less deep, sent the client a
 * log line of 16 MB).
 */
import { Transform, type TransformCallback } from "node:stream";

/** The longest header block read before it is called bad (real ones are a few dozen bytes). */
const MAX_HEADER_BYTES = 8 * 1024;
/** The longest body taken: far above any real message (a 5 MB file's text is one), short of what a bad length asks. */
export const MAX_BODY_BYTES = 512 * 1024 * 1024;

/** The deepest nesting of arrays and objects a body may have: LSP's messages have a dozen levels or so. */
export const MAX_BODY_DEPTH = 256;

const SEPARATOR = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = Buffer.from("Content-Length:");

export class FrameGuard extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  /** The body length of the frame being read, once its header block was read, and that block. */
  private bodyLength: number | undefined;
  private header: Buffer | undefined;
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
        // (Held until the body is whole and judged: a body passed over goes with its header.)
        this.header = this.buffer.subarray(0, end + SEPARATOR.length);
        this.buffer = this.buffer.subarray(end + SEPARATOR.length);
        this.bodyLength = length;
      }
      if (this.buffer.length < this.bodyLength) return;
      const body = this.buffer.subarray(0, this.bodyLength);
      if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
        this.log(`a message of ${body.length} bytes nested deeper than ${MAX_BODY_DEPTH} levels passed over: no LSP message is`);
      } else {
        this.push(this.header);
        this.push(body);
      }
      this.header = undefined;
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

/**
 * Whether a JSON text nests arrays and objects deeper than `max`, brackets in strings not counted.
 * One pass over the bytes: a 5 MB file's text (one string) costs a few milliseconds.
 */
export function nestedDeeperThan(body: Buffer, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const b = body[i];
    if (b === 0x22) { // a string: to its closing quote, escapes passed over
      for (i++; i < body.length && body[i] !== 0x22; i++) if (body[i] === 0x5c) i++;
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}
