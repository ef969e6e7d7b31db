/**
 * Every case the rule runner (`test/rules/rule-cases.test.ts`) runs, gathered from where they are
 * written: each rule's documented examples (`doc.wrong`, `doc.right`) and its own `cases` (in its
 * file, found by its id), the company model's cases (`test/rules/model-cases.ts`) and the lint
 * plugin's reading cases (`test/lint/fixtures.ts`). Each gets a folder of its own,
 * `<lint|core>/<owner>/<n>`: cases the lint plugin's hosts also run (the import rules', the model's
 * and the plugin's own) under `lint/`, the others under `core/`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { RULES } from "../../server/src/core/rules/index.ts";
import { IMPORT_RULE_IDS } from "../../server/src/core/rules/ids.ts";
import type { RuleCase } from "../../server/src/core/rules/rule.ts";
import { MODEL_CASES } from "../rules/model-cases.ts";
import { FIXTURES } from "../lint/fixtures.ts";
import { parseFixture, type Fixture } from "./fixture.ts";

export interface Case {
  /** Its folder under the cases' root. */
  folder: string;
  /** A rule id, `model` or `lint`. */
  owner: string;
  name: string;
  kind: "doc-wrong" | "doc-right" | "case";
  fixture: Fixture;
  crlf: string[];
  /** Whether the lint plugin's hosts run it too. */
  lint: boolean;
}

/** A rule's own cases, read from its file by its id (a file without them has none). */
export function casesOf(id: string): RuleCase[] {
  const mod = require(`../../server/src/core/rules/${id}.ts`) as { cases?: () => RuleCase[] };
  return mod.cases?.() ?? [];
}

/** The company of the case of that name (for a test that asks more of it than its markers). */
export function caseNamed(cases: RuleCase[], name: string): string {
  const c = cases.find((x) => x.name === name);
  if (!c) throw new Error(`no case named "${name}"`);
  return c.company;
}

export function allCases(): Case[] {
  const out: Case[] = [];
  const add = (owner: string, lint: boolean, list: { name: string; kind: Case["kind"]; company: string; crlf?: string[] }[]) =>
    list.forEach((c, i) => out.push({ folder: `${lint ? "lint" : "core"}/${owner}/${i}`, owner, name: c.name, kind: c.kind, fixture: parseFixture(c.company), crlf: c.crlf ?? [], lint }));
  for (const r of RULES) {
    add(r.id, (IMPORT_RULE_IDS as readonly string[]).includes(r.id), [
      { name: "the doc's wrong example", kind: "doc-wrong", company: r.doc.wrong },
      { name: "the doc's right example", kind: "doc-right", company: r.doc.right },
      ...casesOf(r.id).map((c) => ({ ...c, kind: "case" as const })),
    ]);
  }
  add("model", true, MODEL_CASES().map((c) => ({ ...c, kind: "case" as const })));
  add("lint", true, FIXTURES().map((c) => ({ ...c, kind: "case" as const })));
  return out;
}

/** Writes every case under `root`, each in its folder (CRLF where it asks). */
export function writeCases(root: string, cases: Case[]): void {
  for (const c of cases) {
    for (const [rel, text] of Object.entries(c.fixture.files)) {
      const p = join(root, c.folder, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, c.crlf.includes(rel) ? text.replace(/\n/g, "\r\n") : text);
    }
  }
}
