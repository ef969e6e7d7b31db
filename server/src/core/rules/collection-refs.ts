/**
 * Operation references (SPEC A8), judged once for `collection-op` and `collection-scope`: each
 * `data.<collection>.<op>` string of a company's code against the collections its scope sees.
 */
import { COLLECTION_OPS, type Analysis, type Collection, visibleCollections } from "../analysis.ts";
import { didYouMean, insideQuotes } from "../text.ts";
import type { ProblemInit } from "./rule.ts";
import type { CompanyFile } from "../model.ts";
import type { OpRefFact } from "../facts.ts";

export interface RefProblem extends ProblemInit { rule: "collection-op" | "collection-scope" }

const allByNameMemo = new WeakMap<Collection[], Map<string, Collection[]>>();

/**
 * One file's op-reference findings, kept on its entry with the version of the collections they
 * were judged against (`collectionNamesVersion`), so the two rules that share them judge once.
 */
export function refProblems(file: CompanyFile, a: Analysis): RefProblem[] {
  const refs = file.facts?.opRefs;
  if (!refs || refs.length === 0) return [];
  const against = a.collectionNamesVersion;
  if (file.refProblems?.against === against) return file.refProblems.problems as RefProblem[];
  let allByName = allByNameMemo.get(a.collections);
  if (!allByName) {
    allByName = new Map();
    for (const c of a.collections) allByName.set(c.name, [...(allByName.get(c.name) ?? []), c]);
    allByNameMemo.set(a.collections, allByName);
  }
  const visible = visibleCollections(a, file.role.scope);
  const mine: RefProblem[] = [];
  for (const ref of refs) judgeRef(file, ref, visible, allByName, mine);
  file.refProblems = { against, problems: mine };
  return mine;
}

function judgeRef(file: CompanyFile, ref: OpRefFact, visible: Map<string, Collection[]>, allByName: Map<string, Collection[]>, out: RefProblem[]): void {
  const scope = file.role.scope;
  const found = visible.get(ref.collection);
  if (found && (COLLECTION_OPS as readonly string[]).includes(ref.op)) return;
  const id = `data.${ref.collection}.${ref.op}`;
  const inner = insideQuotes(ref.range);
  if (!found) {
    const elsewhere = allByName.get(ref.collection);
    if (elsewhere) {
      const where = elsewhere.map((c) => (c.scope === null ? "the root scope" : `app \`${c.scope}\``)).join(", ");
      out.push({
        rule: "collection-scope", file: file.path, range: ref.range,
        message: `Collection \`${ref.collection}\` belongs to ${where}, which ${scope === null ? "the root scope" : `app \`${scope}\``} cannot see; a file sees the root scope's collections and its own app's`,
        related: elsewhere.map((c) => ({ file: c.file.path, range: c.nameRange, message: `\`${c.name}\` is declared here` })),
      });
      return;
    }
    // An export's name where the collection's own is meant (`people` exports the collection named
    // `contacts`): the collection that export declares.
    let byExport: Collection | undefined;
    for (const cs of visible.values()) for (const c of cs) if (c.fact.exportName === ref.collection && (byExport === undefined || c.name < byExport.name)) byExport = c;
    const s = byExport?.name ?? didYouMean(ref.collection, visible.keys());
    const why = byExport ? `; \`${ref.collection}\` is the export that declares the collection \`${byExport.name}\`: did you mean \`${byExport.name}\`?` : s ? `; did you mean \`${s}\`?` : "";
    out.push({
      rule: "collection-op", file: file.path, range: ref.range,
      message: `No collection \`${ref.collection}\` in ${id}${why}`,
      related: byExport ? [{ file: byExport.file.path, range: byExport.nameRange, message: `\`${byExport.name}\` is declared here, exported as \`${ref.collection}\`` }] : undefined,
      fixes: s ? [{ title: `Change to data.${s}.${ref.op}`, preferred: true, edits: [{ file: file.path, range: inner, newText: `data.${s}.${ref.op}` }] }] : undefined,
    });
    return;
  }
  const s = didYouMean(ref.op, COLLECTION_OPS);
  out.push({
    rule: "collection-op", file: file.path, range: ref.range,
    message: `Collection \`${ref.collection}\` has no operation \`${ref.op}\`${s ? `; did you mean \`${s}\`?` : ""} (its operations: ${COLLECTION_OPS.join(", ")})`,
    related: found.map((c) => ({ file: c.file.path, range: c.nameRange, message: `\`${c.name}\` is declared here` })),
    fixes: s ? [{ title: `Change to data.${ref.collection}.${s}`, preferred: true, edits: [{ file: file.path, range: inner, newText: `data.${ref.collection}.${s}` }] }] : undefined,
  });
}
