/**
 * The language server's set-up, once: the companies written to temporary folders, the built server
 * started over stdio (test/support/lsp.ts) with the first of them as its workspace folder (or the
 * folders the options name), initialized, left to finish indexing (unless the options say not to);
 * then the test; then the server shut down (unless the test ended it) and the folders removed,
 * whatever happened.
 *
 *   await withServer(COMPANY, async ({ c, root }) => { … });                      one company
 *   await withServer([A, B], async ({ c, roots: [a, b] }) => { … }, ([a, b]) => ({ folders: [a, b] }));
 *   await withServer([], async ({ c }) => { … }, { folders: [elsewhere] });      no company of its own
 *   const s = await startServer(COMPANY); … await s.stop();                      in before/after hooks
 */
import { LspClient, type ClientOptions } from "./lsp.ts";
import { parseFixture, removeFixture, writeFixture, type Fixture } from "./fixture.ts";

/** A company: a fixture's text or the fixture (written to a new temporary folder), or a folder the test made (`path`); removed afterwards either way. */
export type Company = string | Fixture | { path: string };

export interface ServerOptions extends ClientOptions {
  /** The workspace folders (default: the first company's folder, or none without a company). */
  folders?: string[];
  /** Whether to wait for the first indexing to end before the test (default true); a number: yes, for at most that many ms. */
  idle?: boolean | number;
  /** Whether the server is ended with SIGKILL instead of a shutdown (one the test may have left hung). */
  kill?: boolean;
}

export interface ServerRun {
  c: LspClient;
  /** The first company's folder (its real path), or "" without a company. */
  root: string;
  /** Every company's folder, in the order given. */
  roots: string[];
  /** The first company's fixture (none for a folder given by path). */
  fixture: Fixture;
}

export interface RunningServer extends ServerRun {
  /** Shuts the server down (unless it has ended or been killed) and removes the companies' folders. */
  stop(): Promise<void>;
}

const NONE: Fixture = { files: {}, expected: [] };

/** Writes the companies (those given by path are there already): their folders and fixtures. */
function write(companies: Company | Company[]): { roots: string[]; fixtures: Fixture[] } {
  const roots: string[] = [];
  const fixtures: Fixture[] = [];
  try {
    for (const company of Array.isArray(companies) ? companies : [companies]) {
      if (typeof company !== "string" && "path" in company) { roots.push(company.path); fixtures.push(NONE); continue; }
      const fixture = typeof company === "string" ? parseFixture(company) : company;
      roots.push(writeFixture(fixture));
      fixtures.push(fixture);
    }
  } catch (e) { for (const r of roots) removeFixture(r); throw e; }
  return { roots, fixtures };
}

/** The companies written, `run` given their folders, the folders removed whatever happens. */
export async function withCompanies<T>(companies: Company[], run: (roots: string[]) => Promise<T>): Promise<T> {
  const { roots } = write(companies);
  try {
    return await run(roots);
  } finally {
    for (const r of roots) removeFixture(r);
  }
}

/** Starts a server over the companies; the caller stops it (`stop()`), as an after hook does. `options` may be a function of the companies' folders. */
export async function startServer(companies: Company | Company[], options: ServerOptions | ((roots: string[]) => ServerOptions) = {}): Promise<RunningServer> {
  const { roots, fixtures } = write(companies);
  let c: LspClient | undefined;
  let kill = false;
  const stop = async () => {
    try {
      if (c && kill) c.proc.kill("SIGKILL");
      else if (c && c.proc.exitCode === null && c.proc.signalCode === null) await c.shutdown();
    } finally {
      for (const r of roots) removeFixture(r);
    }
  };
  try {
    const { folders, idle = true, kill: killed = false, ...client } = typeof options === "function" ? options(roots) : options;
    kill = killed;
    c = new LspClient(client);
    await c.initialize(folders ?? roots.slice(0, 1));
    if (idle !== false) await c.waitIdle(idle === true ? undefined : idle);
    return { c, root: roots[0] ?? "", roots, fixture: fixtures[0] ?? NONE, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Starts a server over the companies, runs the test, and stops it whatever happens. */
export async function withServer<T>(companies: Company | Company[], run: (server: ServerRun) => Promise<T>, options: ServerOptions | ((roots: string[]) => ServerOptions) = {}): Promise<T> {
  const server = await startServer(companies, options);
  try {
    return await run(server);
  } finally {
    await server.stop();
  }
}
