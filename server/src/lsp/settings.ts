/**
 * The `sanoma` settings, pulled with `workspace/configuration` for each company (scope: its root),
 * or pushed with `workspace/didChangeConfiguration` by a client that cannot be asked, and validated with zod: what a client sends is unknown input, and a bad value falls back to the
 * default with a message, never a crash. The schema matches `contributes.configuration` in the
 * extension's package.json (a test keeps them in step).
 */
import { z } from "zod";
import { RULE_IDS } from "../core/rules/index.ts";
import type { CheckOptions } from "../core/check.ts";

const Level = z.enum(["off", "error", "warning", "info", "hint"]);

export const SettingsSchema = z.object({
  rules: z.record(z.string(), Level).default({}),
  exclude: z.array(z.string()).default([]),
  companyRoots: z.array(z.string()).default([]),
  preview: z.object({ command: z.string().default("npx --no-install sanoma preview ${file}#${export}") }).default({}),
  boxes: z.object({ isolation: z.enum(["auto", "process", "namespace"]).default("auto") }).default({}),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

/** Parses settings from a client; returns the defaults (and what was wrong) for what does not parse. */
export function parseSettings(raw: unknown): { settings: Settings; problems: string[] } {
  if (raw === null || raw === undefined) return { settings: DEFAULT_SETTINGS, problems: [] };
  const parsed = SettingsSchema.safeParse(raw);
  if (parsed.success) {
    const unknown = Object.keys(parsed.data.rules).filter((k) => !(RULE_IDS as readonly string[]).includes(k));
    return { settings: parsed.data, problems: unknown.map((k) => `sanoma.rules: no rule named "${k}"`) };
  }
  return { settings: DEFAULT_SETTINGS, problems: parsed.error.issues.map((i) => `sanoma.${i.path.join(".")}: ${i.message}`) };
}

export function checkOptions(s: Settings): CheckOptions {
  return { rules: s.rules as CheckOptions["rules"] };
}
