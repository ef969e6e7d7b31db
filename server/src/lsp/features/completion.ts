/**
 * Completion: operation ids inside `"data.` strings (only the collections the file's scope sees),
 * desired-object field names of a resource type, a connector's type names after `fly.`, and the
 * right framework module inside an import's specifier. What the cursor is in (a comment, a string,
 * a module specifier) is read from the document's syntax tree (`core/cursor.ts`), not guessed from
 * quotes on the line: nothing is offered in a comment, and an escaped quote earlier on the line
 * (`"x\"y"`) does not turn the string that follows inside out.
 */
import { CompletionItemKind, type CompletionItem, type CompletionParams } from "vscode-languageserver/node";
import { resolveDeclaration } from "../../core/analysis.ts";
import { opIdsAt } from "../../core/complete.ts";
import { FRAMEWORK } from "../../core/company.ts";
import { containsPosition, isIdentifierName } from "../../core/text.ts";
import type { Session } from "../session.ts";
import { locate } from "./target.ts";
import { cursorContext } from "../../core/cursor.ts";

const MODULE_OF: Record<string, string> = { secret: `${FRAMEWORK}/resources`, sanoma: `${FRAMEWORK}/resources`, collection: `${FRAMEWORK}/data` };

export function completion(session: Session, params: CompletionParams): CompletionItem[] {
  const doc = session.documents.get(params.textDocument.uri);
  const loc = locate(session, params.textDocument.uri);
  if (!doc || !loc?.file) return [];
  const pos = params.position;
  const line = doc.getText({ start: { line: pos.line, character: 0 }, end: pos });
  const file = loc.file;
  const text = doc.getText();
  const offset = doc.offsetAt(pos);
  const at = cursorContext(loc.path, text, offset);
  if (at.kind === "comment") return [];

  if (at.kind === "string") {
    const s = at.string;
    if (s.template) return [];
    const start = doc.positionAt(s.start);
    // A string continued from an earlier line (`"data.\` + line break): an edit's range must stay
    // on the cursor's line, and no one types an op id that way.
    if (start.line !== pos.line) return [];
    // What an item replaces: the string's whole content, up to its closing quote on this line (or,
    // unterminated, the rest of the word at the cursor), not just what is before the cursor, so
    // that accepting `data.orders.list` in `"data.orders.|get"` gives `"data.orders.list"`.
    const closing = doc.positionAt(s.end);
    const end = s.terminated && closing.line === pos.line ? closing : doc.positionAt(offset + /^[\w$.@/-]*/.exec(text.slice(offset, s.end))![0].length);
    const range = { start, end };
    if (s.module) {
      // Import sources: the framework module that the imported names come from.
      const before = line.slice(0, start.character);
      const names = /\{([^}]*)\}/.exec(before)?.[1].split(",").map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean) ?? [];
      const wanted = new Set(names.map((n) => MODULE_OF[n]).filter(Boolean));
      const all = [FRAMEWORK, `${FRAMEWORK}/resources`, `${FRAMEWORK}/data`];
      return all.map((m, i) => ({ label: m, kind: CompletionItemKind.Module, sortText: `${wanted.has(m) ? 0 : 1}${i}`, preselect: wanted.has(m), detail: wanted.has(m) ? `where ${names.filter((n) => MODULE_OF[n] === m).join(", ")} come${names.length === 1 ? "s" : ""} from` : undefined, textEdit: { range, newText: m } }));
    }
    // Op ids (`core/complete.ts`, shared with the TypeScript plugin).
    const ids = opIdsAt(loc.analysis, file.role.scope, s, text, offset);
    if (!ids) return [];
    const idRange = { start: doc.positionAt(ids.start), end: doc.positionAt(ids.end) };
    return ids.items.map((i): CompletionItem => ({ label: i.id, kind: CompletionItemKind.Value, detail: i.detail, textEdit: { range: idRange, newText: i.id } }));
  }

  const facts = file.facts;
  if (!facts) return [];

  // After `fly.`: the types a connector import offers.
  const member = /([A-Za-z_$][\w$]*)\.([\w$]*)$/.exec(line);
  if (at.kind === "code" && member) {
    const binding = facts.bindings.get(member[1]);
    if (binding) {
      const names = loc.analysis.resolver.typeMembers(loc.path, binding.source, binding.imported);
      return names.map((n) => ({ label: n, kind: CompletionItemKind.Class, detail: "resource type" }));
    }
  }

  // At the place of a key of a desired object itself (not in a value, not in an object nested in
  // a value, not in the options): the type's fields not yet written. An object still unclosed
  // while it is typed counts too: the parser's recovery keeps it open, in the facts as here.
  if (at.kind === "key" && file.role.isDataFile) {
    for (const d of facts.declarations) {
      if (!d.desired || doc.offsetAt(d.desired.range.start) !== at.object) continue;
      const r = resolveDeclaration(loc.analysis.resolver, file, d);
      if (r.kind !== "type" || !r.type.spec.fields) return [];
      // The key being typed (the cursor is in it) is not yet "written".
      const present = new Set(d.desired.keys.filter((k) => !containsPosition(k.range, pos)).map((k) => k.name));
      // A field that is no identifier (`max-size`) is written quoted, over the name being typed
      // (an edit of its own: a client's word at the cursor stops at the `-`).
      const typed = { start: { line: pos.line, character: pos.character - /[\w$]*$/.exec(line)![0].length }, end: { line: pos.line, character: pos.character + /^[\w$]*/.exec(doc.getText({ start: pos, end: { line: pos.line + 1, character: 0 } }))![0].length } };
      return Object.entries(r.type.spec.fields).filter(([n]) => !present.has(n)).map(([n, optional]): CompletionItem => ({
        label: n, kind: CompletionItemKind.Field, detail: `${r.type.id} · ${optional ? "optional" : "required"}`, sortText: `${optional ? 1 : 0}${n}`,
        ...(isIdentifierName(n) ? {} : { filterText: n, textEdit: { range: typed, newText: JSON.stringify(n) } }),
      }));
    }
  }
  return [];
}
