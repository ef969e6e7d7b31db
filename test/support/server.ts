/**
 * The language server's set-up, once: a fixture company written to a temporary folder, the built
 * server started over stdio (test/support/lsp.ts) with that folder as its workspace, initialized,
 * left to finish indexing; then the test; then the server shut down (unless the test ended it) and
 * the folder removed, whatever happened.
 */
import { LspClient, type ClientOptions } from "./lsp.ts";
import { parseFixture, removeFixture, writeFixture, type Fixture } from "./fixture.ts";

export interface ServerRun {
  c: LspClient;
  /** The company's folder (its real path). */
  root: string;
  fixture: Fixture;
}

export async function withServer<T>(company: string | Fixture, run: (server: ServerRun) => Promise<T>, options: ClientOptions = {}): Promise<T> {
  const fixture = typeof company === "string" ? parseFixture(company) : company;
  const root = writeFixture(fixture);
  const c = new LspClient(options);
  try {
    await c.initialize([root]);
    await c.waitIdle();
    return await run({ c, root, fixture });
  } finally {
    if (c.proc.exitCode === null) await c.shutdown();
    removeFixture(root);
  }
}
