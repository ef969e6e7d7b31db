/** The custom requests `sanoma/companies` and `sanoma/companyOf`: what the server knows of each company. */
import * as path from "node:path";
import { roleOf } from "../../core/company.ts";
import type { CompaniesResult, CompanyOfParams, CompanyOfResult } from "../../protocol.ts";
import type { Session } from "../session.ts";
import { leftOutBy } from "../settings.ts";

export function companies(session: Session): CompaniesResult {
  const out: CompaniesResult["companies"] = [];
  for (const [root, company] of session.ws.companies) {
    const result = session.resultOf(root);
    const leftOut = session.state.get(root)?.settings?.leftOut;
    const files = [...company.files.values()];
    const workflowSources = files.filter((f) => f.role.isWorkflowSource).map((f) => f.rel).sort();
    const collectionsFiles = files.filter((f) => f.role.isCollectionsFile).map((f) => f.rel).sort();
    out.push({
      root, name: company.name, apps: company.apps(session.ws.fs),
      declarationFiles: [...workflowSources, ...collectionsFiles],
      counts: {
        files: files.length,
        dataFiles: files.filter((f) => f.role.isDataFile).length,
        workflowSources: workflowSources.length,
        declarations: result?.analysis.declarations.length ?? 0,
        collections: result?.analysis.collections.length ?? 0,
        problems: result?.problems.length ?? 0,
      },
      // (Listed, so that a client does not say "no company found"; said, so that its 0 files are not taken for an empty company.)
      ...(leftOut ? { leftOut: leftOutBy(root, leftOut) } : {}),
    });
  }
  out.sort((a, b) => (a.root < b.root ? -1 : 1));
  return { companies: out };
}

export async function companyOf(session: Session, params: CompanyOfParams): Promise<CompanyOfResult | null> {
  const where = await session.locateIndexed(params.uri);
  if (!where) return null;
  const entry = where.company.files.get(where.file);
  const rel = path.relative(where.company.root, where.file).split(path.sep).join("/");
  const scope = (entry?.role ?? roleOf(rel)).scope;
  const kind = entry ? (entry.role.isConfig ? "config" : entry.role.isCollectionsFile ? "collections" : entry.role.isDataFile ? "data" : entry.role.isWorkflowSource ? "workflow" : entry.role.isScenario ? "scenario" : null) : rel === "sanoma.lock.json" ? "lockfile" : null;
  return { root: where.company.root, name: where.company.name, scope, kind };
}
