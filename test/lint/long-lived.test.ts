/**
 * Long-lived hosts: one ESLint instance, and one `oxlint --lsp` process, lint a company; then a
 * `sanoma.config.ts` appears deeper in the tree (a company nested in an app), then goes away. With
 * no restart, each lint's findings follow the company roots as they are on disk at that moment,
 * which is what `sanoma-check` reports at the same moment.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { removeFixture, writeFixture } from "../support/fixture.ts";
import { OXLINT, checkFound, eslintFor, runEslint, sanomaRules, BUNDLE } from "./hosts.ts";

const COMPANY = `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.ts
import { rank } from "../../search/lib/rank";
import { own } from "../lib/own";
export const render = () => [rank, own];
//- /apps/maps/lib/own.ts
export const own = 1;
//- /apps/search/lib/rank.ts
export const rank = 1;
`;
const FILE = "apps/maps/workflows/render.ts";
const NESTED = "apps/maps/sanoma.config.ts";

const dirs: string[] = [];
after(() => { for (const d of dirs) removeFixture(d); });

/** What sanoma-check says now, as `rule@line:col` for the one file. */
const truth = (dir: string) => checkFound(dir).filter((f) => f.file === FILE).map((f) => `${f.rule}@${f.line}:${f.startCol}`).sort();

test("one ESLint instance sees a sanoma.config.ts added deeper, then removed", async () => {
  const dir = writeFixture(COMPANY, "sanoma-lint-live-");
  dirs.push(dir);
  const eslint = eslintFor(dir);
  const lint = async () => (await runEslint(dir, { eslint, paths: [FILE] })).found.map((f) => `${f.rule}@${f.line}:${f.startCol}`).sort();

  const first = await lint();
  assert.deepEqual(first, ["no-cross-app-import@0:21"]);
  assert.deepEqual(first, truth(dir));

  writeFileSync(join(dir, NESTED), "export default {};\n");
  const nested = await lint();
  // apps/maps is a company of its own now: the import leaves it.
  assert.deepEqual(nested, ["no-import-outside-company@0:21"]);
  assert.deepEqual(nested, truth(dir));

  unlinkSync(join(dir, NESTED));
  assert.deepEqual(await lint(), first);
});

/** Just enough of an LSP client for `oxlint --lsp`: framing, requests, published diagnostics. */
class OxlintLsp {
  private readonly proc;
  private buf = Buffer.alloc(0);
  private id = 0;
  private readonly pending = new Map<number, (v: unknown) => void>();
  readonly published: { uri: string; diagnostics: { code?: string; range: { start: { line: number; character: number } } }[] }[] = [];
  private wake: (() => void)[] = [];

  constructor(cwd: string) {
    this.proc = spawn(OXLINT, ["--lsp"], { cwd, stdio: ["pipe", "pipe", "ignore"] });
    this.proc.stdout.on("data", (d: Buffer) => this.onData(d));
  }

  private onData(d: Buffer) {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const head = this.buf.indexOf("\r\n\r\n");
      if (head < 0) return;
      const len = Number(/Content-Length: *(\d+)/i.exec(this.buf.subarray(0, head).toString())![1]);
      if (this.buf.length < head + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(head + 4, head + 4 + len).toString());
      this.buf = this.buf.subarray(head + 4 + len);
      if (msg.id !== undefined && msg.method === undefined) { this.pending.get(msg.id)?.(msg.result); this.pending.delete(msg.id); }
      else if (msg.id !== undefined) this.send({ id: msg.id, result: msg.method === "workspace/configuration" ? msg.params.items.map(() => ({})) : null });
      else if (msg.method === "textDocument/publishDiagnostics") { this.published.push(msg.params); for (const w of this.wake.splice(0)) w(); }
    }
  }

  send(m: object) {
    const s = JSON.stringify({ jsonrpc: "2.0", ...m });
    this.proc.stdin.write(`Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`);
  }

  request(method: string, params: unknown): Promise<unknown> {
    return new Promise((resolve) => { const id = ++this.id; this.pending.set(id, resolve); this.send({ id, method, params }); });
  }

  /** The next diagnostics published for `uri`. */
  async next(uri: string, timeoutMs = 20_000): Promise<string[]> {
    const from = this.published.length;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = this.published.slice(from).find((p) => p.uri === uri);
      if (got) return got.diagnostics.map((d) => `${/^sanoma\((.+)\)$/.exec(d.code ?? "")?.[1] ?? d.code}@${d.range.start.line}:${d.range.start.character}`).sort();
      if (Date.now() > deadline) throw new Error(`no diagnostics for ${uri} within ${timeoutMs} ms`);
      await new Promise<void>((r) => { this.wake.push(r); setTimeout(r, 200); });
    }
  }

  async close() {
    await Promise.race([this.request("shutdown", null), new Promise((r) => setTimeout(r, 3000))]);
    this.send({ method: "exit" });
    setTimeout(() => this.proc.kill(), 1000).unref();
  }
}

test("one oxlint --lsp process sees a sanoma.config.ts added deeper, then removed", async () => {
  const dir = writeFixture(COMPANY, "sanoma-lint-lsp-");
  dirs.push(dir);
  writeFileSync(join(dir, ".oxlintrc.json"), JSON.stringify({ jsPlugins: [BUNDLE], categories: { correctness: "off" }, rules: sanomaRules() }));
  const lsp = new OxlintLsp(dir);
  try {
    const rootUri = pathToFileURL(dir).href;
    await lsp.request("initialize", { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: "company" }], capabilities: { workspace: { configuration: true } } });
    lsp.send({ method: "initialized", params: {} });
    const uri = pathToFileURL(join(dir, FILE)).href;
    const text = readFileSync(join(dir, FILE), "utf8");
    let version = 1;
    const opened = lsp.next(uri);
    lsp.send({ method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "typescript", version, text } } });
    const first = await opened;
    assert.deepEqual(first, ["no-cross-app-import@0:21"]);
    assert.deepEqual(first, truth(dir));

    const relint = () => {
      const next = lsp.next(uri);
      lsp.send({ method: "textDocument/didChange", params: { textDocument: { uri, version: ++version }, contentChanges: [{ text }] } });
      return next;
    };
    writeFileSync(join(dir, NESTED), "export default {};\n");
    const nested = await relint();
    assert.deepEqual(nested, ["no-import-outside-company@0:21"]);
    assert.deepEqual(nested, truth(dir));

    rmSync(join(dir, NESTED));
    assert.deepEqual(await relint(), first);
  } finally {
    await lsp.close();
  }
});
