/**
 * The import rules over a company's files: each import a file's facts hold, judged by a rule's
 * `judgeImport` (the lint plugin calls the same judgement over its hosts' trees), its findings
 * reported as problems with their certain fix.
 */
import type { CompanyFile } from "../model.ts";
import type { ImportContext, ImportSite } from "../sites.ts";
import type { Range } from "../types.ts";
import { insideQuotes } from "../text.ts";
import type { ImportRule, Report } from "./rule.ts";

/** Runs an import rule over every import of one file (`hasFile`: the company's files, for a rule that asks). */
export function checkImports(rule: ImportRule, file: CompanyFile, root: string, report: Report, hasFile?: (rel: string) => boolean): void {
  const facts = file.facts;
  if (!facts || facts.imports.length === 0) return;
  {
    const ctx: ImportContext = { root, file: file.path, rel: file.rel, role: file.role, hasFile };
    // (Indexed loops: a check runs this once for each file and import rule, mostly before V8 has
    // optimized it, and a `for…of` there makes an object at each step.)
    const imports = facts.imports;
    for (let i = 0; i < imports.length; i++) {
      const imp = imports[i];
      const site: ImportSite<Range> = { specifier: imp.specifier, specifierRange: imp.range, names: imp.names };
      const found = rule.judgeImport(site, ctx);
      for (let j = 0; j < found.length; j++) {
        const f = found[j];
        report({
          file: file.path, range: f.range, message: f.message,
          fixes: f.replaceSpecifier !== undefined ? [{ title: `Import from "${f.replaceSpecifier}"`, preferred: true, edits: [specifierEdit(file.path, imp.range, f.replaceSpecifier)] }] : undefined,
        });
      }
    }
  }
}

/**
 * The edit that makes a specifier literal `range` (its quotes included) name `specifier`: the text
 * between its quotes replaced, so the quotes the file uses stay (`'…'`, `"…"`, `` `…` ``), as the
 * lint plugin's fix keeps them (the same bytes from every surface); the whole literal, in double
 * quotes, where the name needs an escape or the literal spans lines.
 */
function specifierEdit(file: string, range: Range, specifier: string): { file: string; range: Range; newText: string } {
  const plain = !/["'`\\$\n\r\u2028\u2029]/.test(specifier) && range.start.line === range.end.line && range.end.character - range.start.character >= 2;
  if (!plain) return { file, range, newText: JSON.stringify(specifier) };
  return { file, range: insideQuotes(range), newText: specifier };
}
