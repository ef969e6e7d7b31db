/**
 * End-to-end: the packaged extension in a real VS Code (code-server 4.139.1 on Node 24, driven by
 * playwright-core in Debian's Chromium; see ../shared/recipes/real-vscode.md). One editor session,
 * steps in order, each as a person would do it with the keyboard:
 * the Problems panel lists Sanoma problems of files never opened; the status bar's company and
 * scope; typing a second wakeup makes both files' problems appear without saving, and undo clears
 * them; hover on a declaration; completion of an op id in a string; a quick fix from the light bulb;
 * go to definition from an op id; the TypeScript plugin in VS Code's TypeScript server, leaving the
 * problems to the language server (none shows twice); Reveal Company Root; a palette command; the server comes back
 * after it dies and after a restart from the palette; a preview's output in a terminal; the Boxes
 * view, a box's changes shown and applied; Ctrl+C stopping a preview; closing a preview's terminal
 * stopping its run; a server crashing under a running preview (its terminal says the run ended with
 * it); the Boxes view's row when there is no box yet, and its word when the server is down; a preview whose box cannot
 * be made ready saying why (terminal and Boxes view); the restart limit (after the
 * fifth crash in 3 minutes the server stays down, the status bar and an error say so, and the
 * error's Restart brings it back). A screenshot of the workbench with the Problems panel is saved
 * and its path printed. When a step fails, the extension host's logs and the Sanoma output are
 * printed.
 *
 * The workspace is a temporary folder holding `shop/`, a company written below whose text the steps
 * know, and a copy of `examples/acme-broken/` when it exists (every rule firing).
 *
 * Slow on purpose (about a minute with the packaging): `SANOMA_SKIP_E2E=1` skips it; `SANOMA_VSIX`
 * names an already built .vsix; `SANOMA_E2E_KEEP=1` keeps the temporary folder.
 */
import { after, before, describe, it, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chromium, type BrowserContext, type Locator, type Page } from "playwright-core";
import type { Profile, RunningCodeServer } from "../../scripts/code-server.mjs";

const repo = join(__dirname, "..", "..");
const skip = process.env.SANOMA_SKIP_E2E ? "SANOMA_SKIP_E2E is set" : false;
const stepTimeout = 45_000;

/** The company the steps work on, one file per `//- /path` header. */
const shop = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "shop" });
//- /node_modules/@fake/fly/package.json
{ "name": "@fake/fly", "version": "1.0.0", "main": "index.js" }
//- /node_modules/@fake/fly/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const machine = defineResource({
  vendor: "fly", type: "machine", title: "Fly machine",
  schema: z.object({ name: z.string(), region: z.string().optional() }),
  fields: {},
  wakeup: { path: "/wake" },
});
export const volume = defineResource({
  vendor: "fly", type: "volume", title: "Fly volume",
  schema: z.object({ sizeGb: z.number() }),
  fields: {},
});
//- /resources/infra.ts
import * as fly from "@fake/fly";
export const web = fly.machine({ name: "web", region: "ams" });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string", total: "number" } });
//- /workflows/sync.ts
import { defineWorkflow } from "@sanoma-ai/workflows";
import { invoice } from "../apps/billing/workflows/invoice.ts";
export const sync = defineWorkflow(async (ctx) => {
  await ctx.call("data.orders.save", { id: "1", total: 3 });
  await ctx.call("data.orderz.get", { id: "1" });
  return invoice;
});
export const slow = defineWorkflow(async () => {});
//- /apps/billing/app.ts
import { defineApp } from "@sanoma-ai/workflows";
export default defineApp({ name: "billing" });
//- /apps/billing/resources/storage.ts
import * as fly from "@fake/fly";
export const disk = fly.volume({ sizeGb: 10 });
//- /apps/billing/workflows/invoice.ts
import { defineWorkflow } from "@sanoma-ai/workflows";
export const invoice = defineWorkflow(async (ctx) => {
  await ctx.call("data.orders.list", {});
});
//- /sanoma.lock.json
{
  "version": 1,
  "bindings": {
    "resources/infra.ts#web": { "type": "fly.machine", "object": "fly:machine/1" },
    "resources/infra.ts#gone": { "type": "fly.machine", "object": "fly:machine/2" }
  }
}
`;

function parseFixture(text: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const part of text.split(/^\/\/- /m).slice(1)) {
    const newline = part.indexOf("\n");
    files.set(part.slice(0, newline).trim().replace(/^\//, ""), part.slice(newline + 1));
  }
  return files;
}
const shopFiles = parseFixture(shop);

/** 1-based line and column of `needle` (plus `offset` characters) in a fixture file. */
function positionOf(file: string, needle: string, offset = 0): { line: number; column: number } {
  const text = shopFiles.get(file);
  assert.ok(text !== undefined, `fixture file ${file}`);
  const at = text.indexOf(needle);
  assert.ok(at >= 0, `${needle} in ${file}`);
  const before = text.slice(0, at + offset);
  const line = before.split("\n").length;
  return { line, column: at + offset - before.lastIndexOf("\n") };
}

describe("VS Code end to end", { skip, timeout: 600_000 }, () => {
  let cs: typeof import("../../scripts/code-server.mjs");
  let temp: string;
  let profile: Profile;
  let server: RunningCodeServer | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;
  let failed = false;
  /** False once the first step saw the language server fail: later steps then fail at once. */
  let serverUp = true;
  let previewRan = false;
  let workspace = "";
  const started = Date.now();
  const screenshots = join(repo, "test-results", "e2e");

  before(async () => {
    cs = await import("../../scripts/code-server.mjs");
    cs.ensureCodeServer({ quiet: true });
    let vsix = process.env.SANOMA_VSIX;
    if (!vsix) {
      const r = spawnSync("npm", ["run", "package"], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      assert.equal(r.status, 0, `npm run package failed:\n${r.stdout}\n${r.stderr}`);
      vsix = join(repo, "sanoma.vsix");
    }
    temp = mkdtempSync(join(tmpdir(), "sanoma-e2e-"));
    const ws = (workspace = join(temp, "ws"));
    for (const [file, text] of shopFiles) {
      mkdirSync(dirname(join(ws, "shop", file)), { recursive: true });
      writeFileSync(join(ws, "shop", file), text);
    }
    const broken = join(repo, "examples", "acme-broken");
    if (existsSync(broken)) cpSync(broken, join(ws, "acme-broken"), { recursive: true, filter: (src) => !src.endsWith("/.git") });
    profile = cs.makeProfile(join(temp, "profile"), {
      // Keystrokes land as typed: nothing closes brackets, pops suggestions or saves behind the test.
      "editor.autoClosingBrackets": "never",
      "editor.autoClosingQuotes": "never",
      "editor.autoSurround": "never",
      "editor.quickSuggestions": { other: false, comments: false, strings: false },
      "editor.suggestOnTriggerCharacters": false,
      "editor.acceptSuggestionOnEnter": "off",
      "editor.hover.delay": 100,
      "editor.minimap.enabled": false,
      "files.autoSave": "off",
      // The fixture imports a framework that is not installed: TypeScript's errors would bury ours.
      "typescript.validate.enable": false,
      "javascript.validate.enable": false,
      "typescript.suggest.enabled": false,
      // Its log shows the TypeScript plugin the extension contributes (the plugin's lines start with [sanoma]).
      "typescript.tsserver.log": "normal",
      "terminal.integrated.gpuAcceleration": "off",
      // The `slow` workflow's preview runs until stopped: Ctrl+C in its terminal must end it.
      "sanoma.preview.command": "echo \"previewing ${file}#${export} in $(basename $PWD)\" && if [ ${export} = slow ]; then sleep 60; else echo made-by-preview > PREVIEW.md; fi",
    });
    // A machine setting: code-server is a remote, whose machine settings live in Machine/.
    mkdirSync(join(profile.userData, "Machine"), { recursive: true });
    writeFileSync(join(profile.userData, "Machine", "settings.json"), JSON.stringify({ "sanoma.boxes.isolation": "process" }));
    // A key for the Restart command: pressed twice at once, two restarts overlap as no palette can make them.
    mkdirSync(join(profile.userData, "User"), { recursive: true });
    writeFileSync(join(profile.userData, "User", "keybindings.json"), JSON.stringify([{ key: "ctrl+alt+shift+f9", command: "sanoma.restartServer" }]));
    cs.installExtension(profile, vsix);
    server = await cs.startCodeServer({ profile, folder: ws });
    browser = await chromium.launchPersistentContext(join(temp, "chromium"), {
      executablePath: "/usr/bin/chromium",
      headless: true,
      viewport: { width: 1400, height: 900 },
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(stepTimeout);
    await page.goto(server.url);
    // A cold start on a busy machine (2 cores shared with other tests) can take a while.
    await page.getByRole("treeitem", { name: "shop" }).first().waitFor({ timeout: 120_000 });
    console.log(`workbench ready after ${seconds(Date.now() - started)}`);
  });

  after(async () => {
    if (failed && profile) {
      for (const log of cs.extensionLogs(profile)) console.log(`\n----- ${log.path}\n${log.text.slice(-20_000)}`);
      if (server) console.log(`\n----- code-server\n${server.log().slice(-10_000)}`);
    }
    await browser?.close().catch(() => {});
    server?.stop();
    if (temp && !process.env.SANOMA_E2E_KEEP && !failed) rmSync(temp, { recursive: true, force: true });
    else if (temp) console.log(`kept ${temp}`);
    console.log(`e2e took ${seconds(Date.now() - started)}`);
  });

  /** Runs a step that needs the language server; a failure marks the run so that `after` prints the logs, and saves a screenshot. */
  function step(name: string, body: (t: TestContext) => Promise<void>) {
    it(name, async (t) => {
      const began = Date.now();
      try {
        assert.ok(serverUp, "the language server did not start (see the first step)");
        await closeOverlays();
        await body(t);
      } catch (error) {
        failed = true;
        mkdirSync(screenshots, { recursive: true });
        const shot = join(screenshots, `failed-${name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}.png`);
        await page?.screenshot({ path: shot }).catch(() => {});
        console.log(`screenshot of the failure: ${shot}`);
        throw error;
      } finally {
        console.log(`  ${name}: ${seconds(Date.now() - began)}`);
      }
    });
  }

  // ---- Workbench helpers ----

  /** Clicks the quick input row whose label is exactly `label` (a fuzzy first row could be another). */
  async function pickLabel(label: string) {
    const rows = page.locator(".quick-input-list .monaco-list-row");
    let index = -1;
    await waitFor(`the row ${label}`, async () => {
      const labels = await rows.evaluateAll((els) => els.map((e) => (e.querySelector(".label-name") as HTMLElement | null)?.innerText ?? (e as HTMLElement).innerText.split("\n")[0]));
      index = labels.findIndex((l) => l?.replace(/\u00a0/g, " ").trim() === label);
      return index >= 0;
    });
    await rows.nth(index).click();
  }

  /** Runs a palette command by its exact title. */
  async function runCommand(title: string) {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(`>${title}`);
    await pickLabel(title);
  }

  /** Picks the quick pick row whose text matches. */
  async function pickRow(text: RegExp) {
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first();
    await row.waitFor();
    await row.click();
  }

  /** Closes whatever a failed step may have left open (a menu, a quick input, a hover). */
  async function closeOverlays() {
    for (let i = 0; i < 2; i++) await page.keyboard.press("Escape");
  }

  /** Opens a file through Quick Open, waiting for the row of that very path before Enter. */
  async function openFile(path: string) {
    const base = path.split("/").pop()!;
    const dir = path.slice(0, -(base.length + 1));
    for (let attempt = 1; ; attempt++) {
      try {
        await closeOverlays();
        await page.keyboard.press("Control+P");
        const input = page.locator(".quick-input-widget input");
        await input.waitFor({ timeout: 5_000 });
        await input.fill(path);
        await page.locator(".quick-input-list .monaco-list-row.focused", { hasText: base }).filter({ hasText: dir }).waitFor({ timeout: 10_000 });
        await page.keyboard.press("Enter");
        await page.locator(".tab.active", { hasText: base }).waitFor({ timeout: 10_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    await activeEditor().locator(".view-lines").waitFor();
  }

  /** Puts the keyboard focus in the active editor (a click on its text), and checks it is there. */
  async function focusEditor() {
    await activeEditor().locator(".view-lines").click({ position: { x: 5, y: 5 } });
    await page.waitForFunction(() => !!document.activeElement?.closest(".monaco-editor"));
  }

  function activeEditor(): Locator {
    return page.locator(".editor-group-container.active .monaco-editor").first();
  }

  async function goTo(file: string, needle: string, offset = 0) {
    const { line, column } = positionOf(file, needle, offset);
    await page.keyboard.press("Control+G");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor();
    // The go-to-line box starts with ":"; without it the text is a file search.
    await input.fill(`:${line}:${column}`);
    await page.keyboard.press("Enter");
    await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  }

  /**
   * Starts the `slow` workflow's preview, its terminal the only one (the earlier steps' are closed:
   * their runs have ended), and returns that terminal once the run's `sleep` and output are there.
   */
  async function startSlowPreview(): Promise<Locator> {
    await runCommand("Terminal: Kill All Terminals");
    await openFile("shop/workflows/sync.ts");
    await runCommand("Sanoma: Preview Workflow in a Box");
    await pickLabel("slow");
    await waitFor("the slow preview's sleep", async () => sleepPids().length === 1);
    const terminal = page.locator(".terminal-wrapper.active .xterm-rows").first();
    await waitFor("the slow preview's output", async () => /previewing workflows\/sync\.ts#slow/.test(await terminal.innerText()));
    return terminal;
  }

  /** Pids of the `slow` workflow's preview command's `sleep 60` (the `sanoma.preview.command` setting the workspace is given), in whichever box it runs. */
  function sleepPids(): number[] {
    const pids: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/cmdline`, "utf8") === "sleep\u000060\u0000") pids.push(Number(entry));
      } catch {}
    }
    return pids;
  }

  /** Pids of the language servers this test's extension host started (found by their bundle's path). */
  function serverPids(): number[] {
    const bundle = join(profile.extensions, "sanoma-ai.sanoma-");
    const pids: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
        if (cmd.some((a) => a.startsWith(bundle) && a.endsWith("/dist/server.js"))) pids.push(Number(entry));
      } catch {}
    }
    return pids;
  }

  /**
   * The Sanoma status bar item, whose label ends with its state: starting, indexing, ready or
   * warning: <why>. Looked for in the status bar only: after the preview steps other parts of the
   * workbench hold labels starting with "Sanoma: " too.
   */
  function statusItem(): Locator {
    return page.locator('.part.statusbar .statusbar-item-label[aria-label^="Sanoma: "]').first();
  }

  async function waitForStatus(state: RegExp) {
    let label = "";
    await waitFor(`the status bar state ${state}`, async () => state.test((label = (await statusItem().getAttribute("aria-label")) ?? ""))).catch((e) => {
      console.log(`the status bar item's label: ${JSON.stringify(label)}`);
      throw e;
    });
  }

  async function editorText(): Promise<string> {
    return (await activeEditor().locator(".view-lines").innerText()).replace(/\u00a0/g, " ");
  }

  function problemsFilter(): Locator {
    return page.locator(".markers-panel-container .viewpane-filter input, .panel .viewpane-filter input").first();
  }

  async function showProblems(filter = "") {
    const panel = page.locator(".markers-panel");
    if (!(await panel.isVisible())) await page.keyboard.press("Control+Shift+M");
    await panel.waitFor();
    const input = problemsFilter();
    if (await input.isVisible()) await input.fill(filter);
    else assert.equal(filter, "", "the Problems filter box is visible");
  }

  async function problemsText(): Promise<string> {
    return (await page.locator(".markers-panel").innerText()).replace(/\u00a0/g, " ");
  }

  async function waitFor(what: string, check: () => Promise<boolean>, timeout = stepTimeout) {
    const deadline = Date.now() + timeout;
    for (;;) {
      if (await check().catch(() => false)) return;
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
      await page.waitForTimeout(250);
    }
  }

  /**
   * Waits until the Problems panel, filtered by `filter`, reads as `check` wants. The panel lists
   * only the rows in view, so a filter the panel has not applied (a fill while it was still
   * laying out: seen in a clean run) leaves the rows looked for out of view: the filter is typed
   * again whenever the box does not hold it, and every 10 s the check still fails. A failure
   * says what the panel, the problem counts and the Sanoma status item read, in its message.
   */
  async function waitForProblems(filter: string, what: string, check: (text: string) => boolean) {
    await showProblems(filter);
    let last = "";
    let typedAt = Date.now();
    await waitFor(what, async () => {
      const value = await problemsFilter().inputValue().catch(() => filter);
      if (check((last = await problemsText())) && value === filter) return true;
      if (value !== filter || Date.now() - typedAt > 10_000) {
        await showProblems("");
        await showProblems(filter);
        typedAt = Date.now();
      }
      return false;
    }).catch(async (e) => {
      const counts = await page.locator(".part.statusbar #status\\.problems").innerText().catch(() => "?");
      const status = await statusItem().getAttribute("aria-label").catch(() => "?");
      const value = await problemsFilter().inputValue().catch(() => "?");
      const said = `Problems panel (filter box ${JSON.stringify(value)}, problem counts ${JSON.stringify(counts)}, ${JSON.stringify(status)}):\n${last.slice(0, 3000)}`;
      console.log(said);
      throw new assert.AssertionError({ message: `${(e as Error).message}\n${said}` });
    });
  }

  /** A notification saying `text`, as a toast or in the notification center. */
  function notification(text: string): Locator {
    return page.locator(".notifications-toasts .notification-list-item, .notifications-center .notification-list-item", { hasText: text }).first();
  }

  /**
   * Clicks the button `name` of the notification saying `text`: in its toast, or in the
   * notification center, opened when the toast has not shown for 10 s (a warning's toast hides by
   * itself after 18 s; a slow machine can take that long to get to it).
   */
  async function answerNotification(text: string, name: string) {
    let lookedAt = Date.now();
    await waitFor(`the notification "${text}" with its ${name} button`, async () => {
      const button = notification(text).getByRole("button", { name, exact: true });
      if (await button.isVisible()) {
        await button.click();
        return true;
      }
      if (Date.now() - lookedAt > 10_000) {
        await runCommand("Notifications: Show Notifications");
        lookedAt = Date.now();
      }
      return false;
    }).catch(async (e) => {
      const shown = await page.locator(".notification-list-item").allInnerTexts().catch(() => []);
      throw new assert.AssertionError({ message: `${(e as Error).message}; the notifications: ${JSON.stringify(shown)}` });
    });
  }

  /** Hides the notification center if a step opened it (new notifications then show as toasts again). */
  async function hideNotificationCenter() {
    if (await page.locator(".notifications-center.visible").isVisible().catch(() => false)) await runCommand("Notifications: Hide Notifications");
  }

  // ---- Steps ----

  step("the extension starts the language server", async () => {
    const item = statusItem();
    let label = "";
    await waitFor("the Sanoma status bar item", async () => {
      label = (await item.getAttribute("aria-label")) ?? "";
      return (await item.isVisible()) && (/, (ready|indexing)$/.test(label) || /warning: .*(failed|will not be restarted|missing)/.test(label));
    }).catch((e) => { serverUp = false; throw e; });
    if (label.includes("warning")) {
      serverUp = false;
      assert.fail(`the language server failed: ${label}`);
    }
  });

  step("the Problems panel lists Sanoma problems of files never opened", async () => {
    assert.equal(await page.locator(".editor-group-container .tab").count(), 0, "no editor is open");
    await waitForProblems("shop", "problems of sync.ts and sanoma.lock.json", (t) =>
      t.includes("sync.ts") && t.includes("sanoma.lock.json") && /collection-op/.test(t) && /no-app-import-from-root/.test(t) && /lockfile/.test(t));
    const text = await problemsText();
    assert.match(text, /sanoma/, "the problems come from sanoma");
    if (existsSync(join(repo, "examples", "acme-broken"))) {
      await waitForProblems("acme-broken", "problems in examples/acme-broken", (t) => /sanoma/.test(t) && t.includes("acme-broken"));
    }
    await showProblems("");
    assert.equal(await page.locator(".editor-group-container .tab").count(), 0, "still no editor open");
  });

  step("the status bar shows the active file's company and scope", async () => {
    await openFile("shop/apps/billing/resources/storage.ts");
    await page.locator(".statusbar-item", { hasText: "shop › billing" }).first().waitFor();
    await openFile("shop/resources/infra.ts");
    await page.locator(".statusbar-item", { hasText: "shop › root" }).first().waitFor();
  });

  step("typing a second wakeup shows both files' problems without saving; undo clears them", async () => {
    await openFile("shop/apps/billing/resources/storage.ts");
    await page.keyboard.press("Control+End");
    await page.keyboard.type(`export const worker = fly.machine({ name: "worker" });`);
    await page.locator(".tab.active.dirty").waitFor();
    // Both files of shop (acme-broken, when present, has one-wakeup problems of its own).
    const both = (t: string) => t.includes("shop/resources") && t.includes("shop/apps/billing/resources");
    await waitForProblems("has one wakeup", "one-wakeup problems in infra.ts and storage.ts", both);
    await focusEditor(); // out of the Problems filter, whose own undo would take the Ctrl+Z
    // The editor undoes typing a word or so at a time: undo until the file is as saved (not dirty).
    for (let i = 0; i < 60 && (await page.locator(".tab.active.dirty").count()) > 0; i++) {
      await page.keyboard.press("Control+Z");
      await page.waitForTimeout(50);
    }
    await page.locator(".tab.active.dirty").waitFor({ state: "detached", timeout: 5_000 });
    assert.ok(!(await editorText()).includes("worker"), "the typed line is gone");
    await waitForProblems("has one wakeup", "no one-wakeup problem in shop after undo", (t) => !t.includes("shop/resources") && !t.includes("shop/apps/billing/resources"));
    await showProblems("");
  });

  step("the companies overview, opened from the status bar, follows its company's problems", async () => {
    await openFile("shop/resources/infra.ts");
    await statusItem().click();
    await pickLabel("shop");
    /** The overview's count of problems, read in the markdown preview's webview. */
    const problemsShown = async (): Promise<number | undefined> => {
      for (const frame of page.frames()) {
        const text = await frame.locator("body").innerText({ timeout: 1_000 }).catch(() => "");
        const match = /Resource declarations[\s\S]*?Problems\s*\|?\s*(\d+)/.exec(text);
        if (match && text.includes("shop")) return Number(match[1]);
      }
      return undefined;
    };
    let before: number | undefined;
    await waitFor("the overview of shop in the markdown preview", async () => (before = await problemsShown()) !== undefined);
    // A second wakeup written on disk (the overview keeps the focus): two problems more, one per file.
    const storage = join(workspace, "shop", "apps", "billing", "resources", "storage.ts");
    const saved = readFileSync(storage, "utf8");
    writeFileSync(storage, `${saved}\nexport const worker = fly.machine({ name: "worker" });\n`);
    try {
      let now: number | undefined;
      await waitFor(`the overview's count to rise from ${before} by 2`, async () => (now = await problemsShown()) === before! + 2)
        .catch((e) => { throw new assert.AssertionError({ message: `${(e as Error).message}: it shows ${now}` }); });
    } finally {
      writeFileSync(storage, saved);
    }
    await waitFor(`the overview's count back to ${before}`, async () => (await problemsShown()) === before);
    await runCommand("View: Close Editor");
  });

  step("hover on a resource declaration shows its type", async () => {
    await openFile("shop/resources/infra.ts");
    await goTo("resources/infra.ts", "web =", 1);
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    const hover = page.locator(".monaco-hover:not(.hidden)", { hasText: "fly.machine" }).first();
    await hover.waitFor();
    await page.keyboard.press("Escape");
  });

  step("completion offers op ids inside a string", async () => {
    await openFile("shop/workflows/sync.ts");
    await goTo("workflows/sync.ts", "  return invoice;");
    await page.keyboard.insertText(`  ctx.call("data.`);
    await page.keyboard.press("Control+Space");
    const suggest = page.locator(".suggest-widget.visible");
    await suggest.waitFor();
    await suggest.locator(".monaco-list-row", { hasText: "orders" }).first().click();
    await waitFor("the accepted completion", async () => /ctx\.call\("data\.orders/.test(await editorText()));
    await runCommand("File: Revert File");
    await waitFor("the revert", async () => !(await page.locator(".tab.active.dirty").count()));
  });

  step("a quick fix from the light bulb corrects an unknown op id", async () => {
    await openFile("shop/workflows/sync.ts");
    await goTo("workflows/sync.ts", "data.orderz.get", 6);
    // The light bulb shows on a line with fixes; Ctrl+. opens the same menu when it is not drawn
    // yet. Asked again until the menu shows: a click on the bulb while it moves (it is drawn
    // beside the cursor's line, and moves when the line's fixes come) opened nothing once.
    const bulb = page.locator(".lightBulbWidget .codicon, .lightBulbWidget").first();
    const menu = page.locator(".action-widget:not(.action-list-submenu-panel)").first();
    let asked = 0;
    await waitFor("the code action menu", async () => {
      if (await menu.isVisible()) return true;
      if (asked++ === 0 && (await bulb.isVisible().catch(() => false))) await bulb.click();
      else await page.keyboard.press("Control+.");
      return await menu.waitFor({ timeout: 3_000 }).then(() => true, () => false);
    });
    // Beside the server's fixes, the extension's own action opens the rule's page.
    await menu.locator(".monaco-list-row", { hasText: "Show documentation for Sanoma rule collection-op" }).first().waitFor();
    const fix = menu.locator(".monaco-list-row", { hasText: "data.orders.get" }).first();
    await fix.waitFor();
    await fix.click();
    await waitFor("the fixed op id", async () => (await editorText()).includes(`"data.orders.get"`));
    await focusEditor();
    await page.keyboard.press("Control+S");
    await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
    await waitForProblems("orderz", "no orderz problem", (t) => !t.includes("sync.ts"));
    await showProblems("");
  });

  step("go to definition from an op id opens the collection", async () => {
    await openFile("shop/workflows/sync.ts");
    await goTo("workflows/sync.ts", "data.orders.save", 6);
    await page.keyboard.press("F12");
    await page.locator(".tab.active", { hasText: "data.ts" }).waitFor();
    await waitFor("the collection in view", async () => (await editorText()).includes("export const orders = collection("));
  });

  /** What VS Code's TypeScript servers have logged so far. */
  function tsserverLogs(): string {
    const out: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d)) {
        const p = join(d, e);
        if (statSync(p).isDirectory()) walk(p);
        else if (e === "tsserver.log") out.push(readFileSync(p, "utf8"));
      }
    };
    if (existsSync(join(profile.userData, "logs"))) walk(join(profile.userData, "logs"));
    return out.join("\n");
  }

  /**
   * Writes the user settings through VS Code's own editor of them (opened by the palette, in a
   * modal editor): a write to the file behind its back is not seen by this VS Code.
   */
  async function writeUserSettings(settings: Record<string, unknown>) {
    const file = join(profile.userData, "User", "settings.json");
    const text = JSON.stringify(settings, null, 2);
    await runCommand("Preferences: Open User Settings (JSON)");
    const editor = page.locator(".monaco-editor", { hasText: '"workbench.startupEditor"' }).last();
    await editor.waitFor();
    await editor.locator(".view-lines").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText(text);
    await page.keyboard.press("Control+S");
    await waitFor("the settings saved", async () => JSON.stringify(JSON.parse(readFileSync(file, "utf8")), null, 2) === text);
    await page.keyboard.press("Control+W");
    await closeOverlays();
  }

  step("the TypeScript plugin runs in VS Code's TypeScript server and leaves the problems to the language server: none shows twice", async () => {
    // TypeScript's own diagnostics on for this step (the fixture's framework is not installed: they are many).
    const file = join(profile.userData, "User", "settings.json");
    const before = JSON.parse(readFileSync(file, "utf8"));
    await writeUserSettings({ ...before, "typescript.validate.enable": true, "javascript.validate.enable": true });
    try {
      await openFile("shop/workflows/sync.ts");
      // TypeScript has reported on the file (its own `Cannot find module`): the plugin's hook ran there.
      // Both the language server's problem and TypeScript's in the filtered list (a check on TypeScript's
      // alone could pass on the list before the filter applies, sync.ts's rows scrolled out of it).
      const message = "A file of the root scope imports";
      await waitForProblems("sync.ts", "TypeScript's own problems in sync.ts, beside the language server's", (t) => /\bts\s+2307\b/.test(t) && t.includes(message));
      const text = await problemsText();
      assert.equal(text.split(message).length - 1, 1, `one "${message}" problem, the language server's:\n${text}`);
      assert.match(text, /sanoma\s+no-app-import-from-root/, "the language server's");
      assert.doesNotMatch(text, /sanoma\s+726\d\d/, "no problem from the plugin");
      // The plugin is loaded in the TypeScript server, and was told of the language server.
      await waitFor("the plugin's lines in the TypeScript server's log", async () => /\[sanoma\] semantic server.*a Sanoma language server reports them|\[sanoma\] configured: languageServer true/.test(tsserverLogs()));
    } finally {
      await writeUserSettings(before);
      await showProblems("");
    }
  });

  step("Sanoma: Reveal Company Root selects the active file's sanoma.config.ts in the Explorer", async () => {
    await openFile("shop/workflows/sync.ts");
    await runCommand("Sanoma: Reveal Company Root");
    await page.locator(".explorer-folders-view .monaco-list-row.selected", { hasText: "sanoma.config.ts" }).waitFor();
  });

  step("a palette command runs: Sanoma: Check Workspace Now", async () => {
    await runCommand("Sanoma: Check Workspace Now");
    await page.locator(".notifications-toasts", { hasText: "Sanoma: checked" }).waitFor();
  });

  step("the language server comes back after it dies, and after a restart from the palette, and one runs after two restarts at once", async () => {
    const pids = serverPids();
    assert.equal(pids.length, 1, `one language server runs (${pids.join(", ")})`);
    const args = readFileSync(`/proc/${pids[0]}/cmdline`, "utf8").split("\0");
    assert.ok(args.includes("--max-semi-space-size=4"), `the server runs with its young generation capped (client/src/server.ts): ${args.join(" ")}`);
    process.kill(pids[0]!, "SIGKILL");
    await waitFor("a new language server", async () => serverPids().some((p) => p !== pids[0]));
    await waitForStatus(/, (ready|indexing)$/);
    assert.ok(args.some((a) => a.endsWith("/dist/code-cache.js")), `the server is started from V8's code cache (dist/code-cache.js): ${args.join(" ")}`);
    await runCommand("Sanoma: Restart Language Server");
    await waitFor("the restarted language server", async () => serverPids().length === 1 && !serverPids().includes(pids[0]!));
    // The server stopped by the restart left its code cache behind (at its exit), in the editor's cache folder.
    const cacheDir = join(profile.xdg, "cache", "sanoma", "code");
    await waitFor("the server's code cache", async () => existsSync(cacheDir) && readdirSync(cacheDir).some((f) => /^server-[0-9a-f]{24}\.cache$/.test(f)), 10_000);
    await waitForStatus(/, (ready|indexing)$/);
    // Twice in a row, the second before the first is done: one server after, not two (two
    // restarts overlapped, and the first one's server ran on beside the second's, unseen).
    const [restarted] = serverPids();
    await page.keyboard.press("Control+Alt+Shift+F9");
    await page.keyboard.press("Control+Alt+Shift+F9");
    await waitFor("the language server restarted twice", async () => serverPids().length >= 1 && !serverPids().includes(restarted!));
    await waitForStatus(/, (ready|indexing)$/);
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(serverPids().length, 1, `one language server after two restarts in a row (${serverPids().join(", ")})`);
    await waitForProblems("shop", "the problems again", (t) => t.includes("sanoma.lock.json"));
    await showProblems("");
  });

  step("a preview runs in a box and its output shows in the terminal", async () => {
    // Before any preview, the Boxes view says there are none yet, under the tier it would use.
    await runCommand("View: Show Sanoma");
    const view = page.locator(".part.sidebar");
    await view.locator(".monaco-list-row", { hasText: "Isolation: process" }).waitFor();
    await view.locator(".monaco-list-row", { hasText: "No boxes yet" }).waitFor();
    await openFile("shop/workflows/sync.ts");
    // The command lists the file's workflows from the server's code lenses: after the restart
    // above the server may still be indexing, and then it has none yet (a fresh clone's CI run
    // once got there first).
    await page.locator(".codelens-decoration", { hasText: "Preview in a box" }).first().waitFor({ timeout: 60_000 });
    await runCommand("Sanoma: Preview Workflow in a Box");
    await pickLabel("sync"); // the file's workflows, from the server's code lenses
    const terminal = page.locator(".terminal-wrapper.active .xterm-rows, .terminal .xterm-rows").first();
    await terminal.waitFor();
    await waitFor("the preview's output", async () => /previewing workflows\/sync\.ts#sync/.test(await terminal.innerText()));
    await waitFor("the preview's exit", async () => /exited with code 0/.test(await terminal.innerText()));
    previewRan = true;
  });

  step("the Boxes view lists the preview's box; its changes are shown, then applied to the workspace", async () => {
    assert.ok(previewRan, "the preview step ran first");
    await runCommand("View: Show Sanoma");
    const view = page.locator(".part.sidebar");
    await view.locator(".monaco-list-row", { hasText: "Isolation: process" }).waitFor();
    const boxRow = view.locator(".monaco-list-row", { hasText: "sync" }).first();
    await boxRow.waitFor();
    mkdirSync(screenshots, { recursive: true });
    const shot = join(screenshots, "vscode-boxes.png");
    await page.screenshot({ path: shot });
    console.log(`screenshot: ${shot}`);

    // Show changes: the box's new file, nothing in the workspace yet.
    await runCommand("Sanoma: Show Box Changes");
    await pickRow(/sync/);
    await pickRow(/PREVIEW\.md/);
    await page.locator(".tab.active", { hasText: "PREVIEW.md" }).waitFor();
    assert.ok(!existsSync(join(workspace, "shop", "PREVIEW.md")), "showing changes changes nothing in the workspace");

    // Apply: the file is checked by default; OK copies it back.
    await runCommand("Sanoma: Apply Box Changes to Workspace");
    await pickRow(/sync/);
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "PREVIEW.md" }).waitFor();
    await page.keyboard.press("Enter");
    await page.locator(".notifications-toasts", { hasText: "applied 1 file" }).waitFor();
    await waitFor("PREVIEW.md in the workspace", async () => existsSync(join(workspace, "shop", "PREVIEW.md")));
    await runCommand("View: Show Explorer");
  });

  step("a file changed in the workspace and in the box is applied only after asking, with both versions a click away", async () => {
    assert.ok(previewRan, "the preview step ran first");
    const file = join(workspace, "shop", "PREVIEW.md");
    // The workspace's version goes into the box, the preview writes its own, then the user edits theirs: a conflict.
    writeFileSync(file, "the user's first edit\n");
    await openFile("shop/workflows/sync.ts");
    await runCommand("Sanoma: Preview Workflow in a Box");
    await pickLabel("sync");
    // This run's terminal, not the first preview's (also ended with code 0, and active until this
    // one's shows: a clean run once went on at its sight, wrote the second edit before this sync,
    // and so had no conflict): only this sync updates one file.
    const terminal = page.locator(".terminal-wrapper.active .xterm-rows").first();
    await waitFor("this preview's sync and exit", async () => /, 1 updated,[\s\S]*exited with code 0/.test(await terminal.innerText()));
    writeFileSync(file, "the user's second edit\n");
    await runCommand("Sanoma: Apply Box Changes to Workspace");
    await pickRow(/sync/);
    // Unchecked by default: the user's edit would be lost. Checked, it is asked about. (Clicked until
    // checked, as a click while the list lays out its rows can be lost; each click waited for before
    // another, as a second one while the first is being drawn unchecks it.)
    const conflicted = page.locator(".quick-input-list .monaco-list-row", { hasText: /PREVIEW\.md/ }).first();
    const checked = async () => (await conflicted.getAttribute("aria-checked")) === "true";
    await waitFor("PREVIEW.md checked", async () => {
      if (await checked()) return true;
      await conflicted.click();
      for (const until = Date.now() + 3_000; Date.now() < until; await page.waitForTimeout(100)) if (await checked()) return true;
      return false;
    });
    await page.waitForTimeout(300);
    assert.ok(await checked(), "PREVIEW.md is still checked when the pick is accepted");
    await page.keyboard.press("Enter");
    const question = "PREVIEW.md changed in your workspace too";
    await answerNotification(question, "Compare");
    await page.locator(".tab.active", { hasText: /PREVIEW\.md \(workspace ↔/ }).waitFor();
    assert.equal(readFileSync(file, "utf8"), "the user's second edit\n", "nothing is written while the user compares");
    await answerNotification(question, "Overwrite");
    await notification("applied 1 file").waitFor();
    await hideNotificationCenter();
    await waitFor("the box's version in the workspace", async () => readFileSync(file, "utf8") === "made-by-preview\n");
    await runCommand("View: Close All Editors");
  });

  step("Ctrl+C in a preview's terminal stops its run", async () => {
    assert.ok(previewRan, "the preview step ran first");
    await openFile("shop/workflows/sync.ts");
    await runCommand("Sanoma: Preview Workflow in a Box");
    await pickLabel("slow");
    const terminal = page.locator(".terminal-wrapper.active .xterm-rows").first();
    await waitFor("the slow preview's output", async () => /previewing workflows\/sync\.ts#slow/.test(await terminal.innerText()));
    await runCommand("Terminal: Focus Terminal");
    await page.waitForFunction(() => !!document.activeElement?.closest(".terminal-wrapper"));
    await page.keyboard.press("Control+C");
    await waitFor("the run's end", async () => /\^C[\s\S]*(stopped by SIG\w+|exited with code (130|137|143))/.test(await terminal.innerText()), 15_000);
  });

  step("closing a running preview's terminal stops its run", async () => {
    assert.ok(previewRan, "the preview step ran first");
    await startSlowPreview();
    await runCommand("Terminal: Kill the Active Terminal Instance");
    await waitFor("the run's end, its terminal closed", async () => sleepPids().length === 0, 15_000);
  });

  step("a server that crashes under a running preview: its terminal says the run ended with it, and Ctrl+C that none is left", async () => {
    assert.ok(previewRan, "the preview step ran first");
    const terminal = await startSlowPreview();
    const said = async () => (await terminal.innerText()).replace(/\s+/g, " ");
    const pids = serverPids();
    assert.equal(pids.length, 1, "one language server");
    process.kill(pids[0]!, "SIGKILL");
    await waitFor("the terminal's word of the lost run", async () => /stopped unexpectedly, and this run ended with it/.test(await said()));
    await waitFor("the run's end, its server killed", async () => sleepPids().length === 0, 15_000);
    await runCommand("Terminal: Focus Terminal");
    await page.waitForFunction(() => !!document.activeElement?.closest(".terminal-wrapper"));
    await page.keyboard.press("Control+C");
    await waitFor("Ctrl+C's answer", async () => /no run to stop: it has ended/.test(await said()));
    // The crash was counted: a restart from the palette clears the count, as the restart limit's step expects.
    await waitFor("a new language server after the kill", async () => serverPids().some((p) => p !== pids[0]));
    await waitForStatus(/, (ready|indexing)$/);
    await runCommand("Sanoma: Restart Language Server");
    await waitFor("one language server after the restart", async () => serverPids().length === 1);
    await waitForStatus(/, (ready|indexing)$/);
    await runCommand("View: Close All Editors");
  });

  step("a preview whose box cannot be made ready says why, in its terminal and in the Boxes view", async () => {
    assert.ok(previewRan, "the preview step ran first");
    // The container tier with an image the machine does not have (it is never pulled): the box
    // cannot be made ready, and the root cause is the engine's, not an exit code.
    const machine = join(profile.userData, "Machine", "settings.json");
    const before = readFileSync(machine, "utf8");
    writeFileSync(join(workspace, "shop", "workflows", "unready.ts"), `import { defineWorkflow } from "@sanoma-ai/workflows";\nexport const unready = defineWorkflow(async () => {});\n`);
    const settings = JSON.stringify({ "sanoma.boxes.isolation": "container", "sanoma.boxes.image": "localhost/sanoma-no-such-image:none" });
    writeFileSync(machine, settings);
    const view = page.locator(".part.sidebar");
    try {
      await runCommand("View: Show Sanoma");
      // The editor learns of the settings file through its watcher, which missed the write once in a
      // clean run on a busy machine (the view still said the old tier 45 s later): written again,
      // and the view shown again, every 10 s until the view says the container tier.
      let nudged = Date.now();
      await waitFor("the Boxes view on the container tier", async () => {
        if (await view.locator(".monaco-list-row", { hasText: "Isolation: container" }).count() > 0) return true;
        if (Date.now() - nudged > 10_000) {
          nudged = Date.now();
          writeFileSync(machine, settings);
          await runCommand("View: Show Sanoma");
        }
        return false;
      }, 60_000);
      await openFile("shop/workflows/unready.ts");
      await page.locator(".codelens-decoration", { hasText: "Preview in a box" }).first().waitFor();
      await runCommand("Sanoma: Preview Workflow in a Box"); // (the file's one workflow: no question)
      const terminal = page.locator(".terminal-wrapper.active .xterm-rows").first();
      const said = async () => (await terminal.innerText()).replace(/\s+/g, " ");
      await waitFor("the root cause in the terminal", async () => /could not be made ready, so the command never ran: .*sanoma-no-such-image/.test(await said()));
      assert.doesNotMatch(await said(), /exited with code/, "no exit code of a command that never ran");
      // The box's run, in the Boxes view: "could not start", and why.
      await runCommand("View: Show Sanoma");
      await view.locator(".monaco-list-row", { hasText: "root-unready" }).first().click();
      await view.locator(".monaco-list-row", { hasText: /could not start: .*sanoma-no-such-image/ }).first().waitFor();
    } finally {
      writeFileSync(machine, before);
      await runCommand("View: Close All Editors");
    }
  });

  step("after 5 crashes in 3 minutes the server is not restarted; the error's Restart button brings it back", async () => {
    // client/src/server.ts restarts a dead server at most `maxRestarts` (4) times in 3 minutes. The
    // palette restart in "the language server comes back after it dies…" cleared the count
    // (`restart()` does), and nothing has crashed it since: kills 1 to 4 each bring a new server,
    // kill 5 is the one it gives up on.
    const maxRestarts = 4;
    // (Waited for: a server just killed can still be listed for a moment while it is torn down.)
    const described = () => serverPids().map((p) => { try { return readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ").slice(0, 2).join(" ppid ") + ` pid ${p}`; } catch { return `pid ${p} gone`; } }).join("; ");
    const one = async (when: string) => {
      await waitFor(`one language server ${when}`, async () => serverPids().length === 1, 10_000).catch((e) => { throw new Error(`${(e as Error).message}: ${described()}`); });
    };
    for (let kill = 1; kill <= maxRestarts; kill++) {
      await one(`before kill ${kill}`);
      const pids = serverPids();
      process.kill(pids[0]!, "SIGKILL");
      await waitFor(`a new language server after kill ${kill}`, async () => serverPids().some((p) => p !== pids[0]));
      await waitForStatus(/, (ready|indexing)$/);
    }
    await one(`before kill ${maxRestarts + 1}`);
    const last = serverPids();
    process.kill(last[0]!, "SIGKILL");
    const failure = `The language server stopped ${maxRestarts + 1} times in 3 minutes and will not be restarted`;
    const toast = page.locator(".notifications-toasts .notification-toast", { hasText: `Sanoma: ${failure}` });
    await toast.waitFor();
    await waitForStatus(new RegExp(`, warning: ${failure}$`));
    // Given up for good: no server comes back by itself.
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      assert.deepEqual(serverPids(), [], `no language server runs after kill ${maxRestarts + 1}`);
      await page.waitForTimeout(250);
    }
    // The Boxes view says why it lists nothing (it kept listing the dead server's boxes).
    await runCommand("View: Show Sanoma");
    await page.locator(".part.sidebar", { hasText: "The Sanoma language server is not running" }).waitFor();
    await toast.getByRole("button", { name: "Restart", exact: true }).click();
    await waitFor("the language server started from the error's Restart", async () => serverPids().length === 1 && !serverPids().includes(last[0]!));
    await waitForStatus(/, (ready|indexing)$/);
    await waitForProblems("shop", "the problems again", (t) => t.includes("sanoma.lock.json"));
    await showProblems("");
  });

  step("a screenshot of the workbench with the Problems panel", async () => {
    await openFile("shop/workflows/sync.ts");
    await showProblems("");
    mkdirSync(screenshots, { recursive: true });
    const shot = join(screenshots, "vscode-problems.png");
    await page.screenshot({ path: shot });
    console.log(`screenshot: ${shot}`);
  });
});

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
