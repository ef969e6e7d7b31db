/**
 * The companies' words (`client/src/companies.ts`), without VS Code: a company's line in the
 * status bar's quick pick and its overview's markdown, from what `sanoma/companies` answers.
 */
import type { CompanyInfo } from "../../server/src/protocol.ts";

/** A company's line in the quick pick: its apps and counts, or what leaves it out whole. */
export function companySummary(c: CompanyInfo): string {
  if (c.leftOut !== undefined) return `left out whole by ${c.leftOut}: none of its files is judged`;
  const n = c.counts;
  const apps = c.apps.length ? `${c.apps.length} ${c.apps.length === 1 ? "app" : "apps"} (${c.apps.join(", ")})` : "no apps";
  return `${apps} · ${n.files} files · ${n.declarations} declarations · ${n.collections} collections · ${n.problems} ${n.problems === 1 ? "problem" : "problems"}`;
}

/**
 * The overview of one company as markdown. Paths are plain code spans: the markdown preview
 * refuses `file:` links, and a relative link would resolve against the virtual document.
 */
export function overviewMarkdown(c: CompanyInfo): string {
  const n = c.counts;
  const lines = [
    `# ${c.name}`,
    "",
    `Root: \`${c.root}\` (command **Sanoma: Reveal Company Root** shows it in the Explorer)`,
    "",
    ...(c.leftOut !== undefined ? [`**Left out whole** by ${c.leftOut}: Sanoma reads and judges none of its files, so it counts none below.`, ""] : []),
    "| | |",
    "|---|---:|",
    `| Files | ${n.files} |`,
    `| Data files | ${n.dataFiles} |`,
    `| Workflow sources | ${n.workflowSources} |`,
    `| Resource declarations | ${n.declarations} |`,
    `| Collections | ${n.collections} |`,
    `| Problems | ${n.problems} |`,
    "",
    "## Scopes",
    "",
    "- root scope",
    ...c.apps.map((a) => `- app \`${a}\` in \`apps/${a}/\``),
    "",
    "## Declaration files",
    "",
    ...(c.declarationFiles.length ? c.declarationFiles.map((f) => `- \`${f}\``) : ["(none)"]),
    "",
  ];
  return lines.join("\n");
}
