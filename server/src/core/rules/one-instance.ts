/** Shared by `one-wakeup` and `one-sandbox` (SPEC A5): an instance has one of each. */
import type { Declaration } from "../analysis.ts";
import type { Report, Rule } from "./rule.ts";

export function checkOne(contract: "wakeup" | "sandbox", declarations: Declaration[], report: Report): void {
  const having = declarations.filter((d) => d.type?.contracts.includes(contract));
  if (having.length < 2) return;
  for (const d of having) {
    const others = having.filter((o) => o !== d).sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    report({
      file: d.file.path, range: d.fact.nameRange,
      // The framework's own words.
      message: `an instance has one ${contract}: leave out this one or ${others.map((o) => o.id).join(", ")}`,
      related: others.map((o) => ({ file: o.file.path, range: o.fact.nameRange, message: `another ${contract}: ${o.id} (${o.type!.id})` })),
    });
  }
}

export function makeOneRule(contract: "wakeup" | "sandbox", doc: Rule["doc"]): Rule {
  return {
    id: contract === "wakeup" ? "one-wakeup" : "one-sandbox",
    severity: "error",
    doc,
    check(a, report) { checkOne(contract, a.declarations, report); },
  };
}
