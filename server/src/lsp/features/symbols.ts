/**
 * Document and workspace symbols: declarations, collections and workflows. A document symbol's
 * `range` is its whole declaration statement (so an outline follows the cursor and breadcrumbs
 * show where it is), its `selectionRange` its name; a workspace symbol's location is its name.
 */
import { SymbolKind, type DocumentSymbol, type Position, type DocumentSymbolParams, type WorkspaceSymbol, type WorkspaceSymbolParams } from "vscode-languageserver/node";
import type { Analysis } from "../../core/analysis.ts";
import type { CompanyFile } from "../../core/model.ts";
import type { Session } from "../session.ts";
import { locate } from "./target.ts";

/** `range`: the name; `full`: the whole declaration statement. */
interface Sym { name: string; detail: string; kind: SymbolKind; range: DocumentSymbol["range"]; full: DocumentSymbol["range"]; file: CompanyFile }

function symbolsOf(a: Analysis, only?: CompanyFile): Sym[] {
  const out: Sym[] = [];
  for (const d of a.declarations) if (!only || d.file === only) out.push({ name: d.fact.exportName, detail: d.type?.id ?? "resource", kind: SymbolKind.Object, range: d.fact.nameRange, full: d.fact.range, file: d.file });
  for (const c of a.collections) if (!only || c.file === only) out.push({ name: c.name, detail: `collection (key ${c.fact.key?.value ?? "?"})`, kind: SymbolKind.Struct, range: c.nameRange, full: c.fact.statementRange ?? c.nameRange, file: c.file });
  for (const f of only ? [only] : a.files) {
    if (!f.role.isWorkflowSource || !f.facts) continue;
    for (const w of f.facts.workflows) out.push({ name: w.name, detail: "workflow", kind: SymbolKind.Function, range: w.range, full: w.declaration, file: f });
  }
  return out;
}

export function documentSymbols(session: Session, params: DocumentSymbolParams): DocumentSymbol[] {
  const loc = locate(session, params.textDocument.uri);
  if (!loc?.file) return [];
  // (A name outside its statement, `const web = vm(…); export { web as api }`: the range takes both in, as a client wants the selection inside it.)
  return symbolsOf(loc.analysis, loc.file).map((s) => ({ name: s.name, detail: s.detail, kind: s.kind, range: cover(s.full, s.range), selectionRange: s.range }));
}

export async function workspaceSymbols(session: Session, params: WorkspaceSymbolParams): Promise<WorkspaceSymbol[]> {
  const q = [...params.query.toLowerCase()]; // (by code point: `𝒳` is one character, not two halves)
  const out: WorkspaceSymbol[] = [];
  // Workflows of files read without a syntax tree are read by the parse that judges their syntax,
  // which every check makes: this finds nothing left to read unless an edit's check is still to come.
  await session.readWorkflows("for a symbol search");
  for (const root of session.ws.companies.keys()) {
    const a = session.resultOf(root)?.analysis;
    if (!a) continue;
    for (const s of symbolsOf(a)) {
      if (q.length && !fuzzy(s.name.toLowerCase(), q)) continue;
      out.push({ name: s.name, kind: s.kind, containerName: `${a.company.name} · ${s.file.rel}`, location: { uri: session.uriOf(s.file.path), range: s.range } });
      if (out.length >= 1000) return out;
    }
  }
  return out;
}

function cover(a: DocumentSymbol["range"], b: DocumentSymbol["range"]): DocumentSymbol["range"] {
  const before = (p: Position, q: Position) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return { start: before(b.start, a.start) ? b.start : a.start, end: before(a.end, b.end) ? b.end : a.end };
}

/** Whether the query's characters (code points) appear in the name in order. */
function fuzzy(name: string, q: readonly string[]): boolean {
  let i = 0;
  for (const ch of name) if (ch === q[i]) i++;
  return i === q.length;
}
