/** Shared by `one-wakeup` and `one-sandbox` (SPEC A5): an instance has one of each. */
import type { Declaration } from "../analysis.ts";
import type { Report, Rule } from "./rule.ts";

/** `holders`: the declarations whose type has the contract, sorted by id. */
export function checkOne(contract: "wakeup" | "sandbox", holders: Declaration[], report: Report): void {
  if (holders.length < 2) return;
  for (const d of holders) {
    const others = holders.filter((o) => o !== d);
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
    checkCompany(a, report) { checkOne(contract, a.holders[contract], report); },
    companyInputs: (a) => [a.holders[contract]],
  };
}
