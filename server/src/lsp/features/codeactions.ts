/**
 * Quick fixes: the fixes the rules attached to their problems (did-you-mean replacements, the
 * right import source). Which one is preferred is the core's `isCertainFix`, the very decision
 * `sanoma-check --fix` applies.
 */
import { CodeActionKind, type CodeAction, type CodeActionParams, type TextEdit } from "vscode-languageserver/node";
import { isCertainFix } from "../../core/fixes.ts";
import type { Session } from "../session.ts";

export function codeActions(session: Session, params: CodeActionParams): CodeAction[] {
  const file = session.filePath(params.textDocument.uri);
  if (!file) return [];
  const problems = session.problemsByFile.get(file) ?? [];
  const out: CodeAction[] = [];
  for (const d of params.context.diagnostics) {
    if (d.source !== "sanoma") continue;
    const p = problems.find((x) => x.rule === d.code && sameRange(x.range, d.range) && x.message === d.message);
    for (const fix of p?.fixes ?? []) {
      const changes: Record<string, TextEdit[]> = {};
      for (const e of fix.edits) (changes[session.uriOf(e.file)] ??= []).push({ range: e.range, newText: e.newText });
      out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: isCertainFix(p!, fix), edit: { changes } });
    }
  }
  return out;
}

function sameRange(a: CodeActionParams["range"], b: CodeActionParams["range"]): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
