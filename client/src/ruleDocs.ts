/**
 * Opening a rule's documentation from a Sanoma diagnostic: a code action on every Sanoma problem,
 * and the `sanoma.openRuleDocs` command, which with no argument picks from the problems under the
 * cursor (or in the active file). The address is the diagnostic's `codeDescription.href`.
 */
import * as vscode from "vscode";
import { docsOpenIn } from "./docsLink.ts";

interface RuleLink { rule: string; href: vscode.Uri; message: string }

function linkOf(d: vscode.Diagnostic): RuleLink | undefined {
  if (d.source !== "sanoma" || typeof d.code !== "object" || d.code === null) return undefined;
  return { rule: String(d.code.value), href: d.code.target, message: d.message };
}

export class RuleDocsActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(_doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const seen = new Set<string>();
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      const link = linkOf(d);
      if (!link || seen.has(link.rule)) continue;
      seen.add(link.rule);
      const action = new vscode.CodeAction(`Show documentation for Sanoma rule ${link.rule}`, vscode.CodeActionKind.QuickFix);
      action.command = { command: "sanoma.openRuleDocs", title: action.title, arguments: [link.href.toString()] };
      action.diagnostics = [d];
      // Never preferred: a real fix from the server comes first.
      action.isPreferred = false;
      actions.push(action);
    }
    return actions;
  }
}

/** Opens a rule's page: a shipped markdown page rendered in a tab, a web page in the browser. */
async function showDocs(href: vscode.Uri): Promise<void> {
  if (docsOpenIn(href.toString()) === "preview") await vscode.commands.executeCommand("markdown.showPreview", href);
  else await vscode.env.openExternal(href);
}

/** `sanoma.openRuleDocs [href]`. */
export async function openRuleDocs(href?: unknown): Promise<void> {
  if (typeof href === "string" || href instanceof vscode.Uri) {
    await showDocs(typeof href === "string" ? vscode.Uri.parse(href) : href);
    return;
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage("Sanoma: open a file with a Sanoma problem first");
    return;
  }
  const all = vscode.languages.getDiagnostics(editor.document.uri).map((d) => ({ d, link: linkOf(d) })).filter((x) => x.link);
  const cursor = editor.selection.active;
  const here = all.filter((x) => x.d.range.contains(cursor));
  const candidates = here.length ? here : all;
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage("Sanoma: no Sanoma problem in this file");
    return;
  }
  const chosen = candidates.length === 1
    ? candidates[0]
    : await vscode.window.showQuickPick(
        candidates.map((x) => ({ label: x.link!.rule, description: `line ${x.d.range.start.line + 1}`, detail: x.d.message, x })),
        { title: "Open the documentation of which rule?" },
      ).then((p) => p?.x);
  if (chosen?.link) await showDocs(chosen.link.href);
}
