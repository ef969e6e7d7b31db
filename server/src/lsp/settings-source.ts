/**
 * Where each company's settings come from: the client's `sanoma` section, asked per scope with
 * `workspace/configuration` (or pushed with `workspace/didChangeConfiguration` by a client that
 * cannot be asked: then one set for every company), laid over the team's `.sanomarc.json` (the
 * nearest at or above the company's root, an open editor's text of it winning over the disk's),
 * whose problems are published in that file. A bad value is said once, as a warning.
 */
import * as path from "node:path";
import { CONFIG_FILE } from "../core/company.ts";
import { RULE_IDS } from "../core/rules/index.ts";
import { absoluteInCompanies, isAbsoluteExclude, readSanomaRc } from "../core/sanomarc.ts";
import type { Workspace } from "../core/workspace.ts";
import { answeredWithin, NOT_ANSWERED, type Client } from "./client.ts";
import { toUri } from "./convert.ts";
import type { OpenDocuments } from "./documents.ts";
import type { Publisher } from "./publisher.ts";
import { DEFAULT_SETTINGS, parseSettings, settingsDiagnostic, withShared, type CompanySettings, type Settings } from "./settings.ts";

/** How long a `workspace/configuration` request is waited for before the defaults hold (clients answer in milliseconds). */
export const CONFIGURATION_WAIT_MS = 10_000;

export class SettingsSource {
  /** The `sanoma` section a client pushed, for a client that cannot be asked. */
  private pushed: unknown = undefined;
  /** What was said of bad values since the settings last changed (each once). */
  problems: string[] = [];
  /** Bumped on every change: settings asked for before it are asked again. */
  generation = 0;

  constructor(
    private readonly client: Client,
    private readonly ws: Workspace,
    private readonly docs: OpenDocuments,
    private readonly publisher: Publisher,
    private readonly options: { configuration: boolean; log: (message: string) => void; folders?: readonly string[]; lateAnswer?: () => void; roots?: () => Iterable<string> },
  ) {}

  /**
   * Whether the client once answered `workspace/configuration` after `CONFIGURATION_WAIT_MS`: a
   * client slow but answering is waited for from then on.
   */
  private slowClient = false;

  /**
   * The client's answer to `workspace/configuration`, waited for `CONFIGURATION_WAIT_MS` at most:
   * a client that never answers left every company unindexed, for ever. Past that the defaults
   * hold, and an answer that comes at last has the settings read again (`options.lateAnswer`).
   */
  private async configuration(scopeUri: string | undefined): Promise<unknown> {
    const answer = this.client.configuration(scopeUri);
    if (this.slowClient) return answer;
    const first = await answeredWithin(answer, CONFIGURATION_WAIT_MS);
    if (first !== NOT_ANSWERED) return first;
    this.options.log(`the client did not answer workspace/configuration within ${CONFIGURATION_WAIT_MS / 1000} s: the default settings hold until it does`);
    answer.then(() => {
      if (this.slowClient) return;
      this.slowClient = true;
      this.options.log("the client answered workspace/configuration at last: the settings are read again");
      this.options.lateAnswer?.();
    }, () => undefined);
    return undefined;
  }

  /** The client's settings for a scope (a folder or a company root; none: the workspace's). */
  async ofScope(scope: string | undefined): Promise<Settings> {
    try {
      const raw = this.options.configuration ? await this.configuration(scope ? toUri(scope) : undefined) : this.pushed;
      const { settings, problems } = parseSettings(raw);
      for (const p of problems) this.said(p);
      return settings;
    } catch (e) {
      this.options.log(`workspace/configuration failed: ${(e as Error).message}`);
      return DEFAULT_SETTINGS;
    }
  }

  /** A bad value, said once (as a warning) until the settings change. */
  private said(problem: string): void {
    if (this.problems.includes(problem)) return;
    this.problems.push(problem);
    this.client.warn(`Sanoma: ${problem}`);
  }

  /** A company's settings: the client's over the team's `.sanomarc.json`, whose problems are published in it. */
  async forCompany(root: string): Promise<CompanySettings> {
    let own = await this.ofScope(root);
    // An absolute folder of sanoma.exclude is the folder it names: a folder there that neither lies
    // in nor holds a company the server knows names nothing, and is said as one that names no folder
    // is. One that is no folder (`/apps/legacy`) is a path from each company root, as it always was.
    if (own.exclude.some((e) => isAbsoluteExclude(e))) {
      const known = [root, ...(this.options.roots?.() ?? [])];
      const stray = own.exclude.filter((e) => isAbsoluteExclude(e) && this.ws.fs.isDir(e) && !absoluteInCompanies(e, known));
      for (const e of stray) this.said(`sanoma.exclude: "${e}" lies in no company of the workspace, nor holds one: it names no folder of theirs`);
      if (stray.length > 0) own = { ...own, exclude: own.exclude.filter((e) => !stray.includes(e)) };
    }
    const rc = readSanomaRc(this.ws.fs, root, RULE_IDS, (f) => this.docs.openText(f));
    this.hold(root, rc.file);
    if (rc.file !== undefined) this.publisher.file(rc.file, rc.problems.map(settingsDiagnostic));
    return withShared(own, rc, root, this.options.folders, (d) => this.ws.fs.isFile(path.join(d, CONFIG_FILE)));
  }

  /** The `.sanomarc.json` each company's settings were last read from: its problems are published while one holds for a company. */
  private readonly rcOf = new Map<string, string>();

  /** The company at `root` now reads `file` (none: no `.sanomarc.json`); the one it read before, if no other company reads it, has its problems cleared. */
  private hold(root: string, file: string | undefined): void {
    const before = this.rcOf.get(root);
    if (file === undefined) this.rcOf.delete(root); else this.rcOf.set(root, file);
    if (before === undefined || before === file) return;
    for (const held of this.rcOf.values()) if (held === before) return;
    this.publisher.file(before, []);
  }

  /** The company at `root` is no more (dropped, dissolved): a `.sanomarc.json` that held only for it has its problems cleared. */
  release(root: string): void {
    this.hold(root, undefined);
  }

  /**
   * Settings changed: a new generation. `pushed`, from a client that cannot be asked, is its
   * `{ settings: { sanoma: {…} } }` (no `sanoma` in them: the defaults); false when the
   * notification tells nothing new (no settings in it).
   */
  changed(pushed?: unknown): boolean {
    if (!this.options.configuration) {
      if (typeof pushed !== "object" || pushed === null) return false;
      this.pushed = (pushed as { sanoma?: unknown }).sanoma;
    }
    this.generation++;
    this.problems = [];
    return true;
  }

  /**
   * The company roots the `companyRoots` setting names (those that hold a config): asked of each
   * workspace folder, a relative path resolved against the folder whose setting it is (a
   * multi-root workspace's folders each have theirs).
   */
  async companyRoots(folders: readonly string[]): Promise<string[]> {
    const scopes = folders.length > 0 ? folders : [undefined];
    const named = new Set<string>();
    for (const [folder, s] of await Promise.all(scopes.map(async (f) => [f, await this.ofScope(f)] as const))) {
      for (const r of s.companyRoots) named.add(path.resolve(folder ?? "/", r));
    }
    return [...named].filter((r) => this.ws.fs.isFile(path.join(r, CONFIG_FILE)));
  }
}
