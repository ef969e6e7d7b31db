/**
 * A file's workflows from its syntax tree: its top-level statements only (no walk of the whole
 * tree), so that a parse made for another reason (whether a workflow source parses, A11) can read
 * them too, for almost nothing. The full reading (`facts-tree.ts`) and the lean one (`syntaxAndWorkflows`)
 * both call this.
 */
import ts from "./typescript.ts";
import type { WorkflowFact } from "./fact-types.ts";
import { intern } from "./intern.ts";
import { hasModifier, unwrap } from "./ts-nodes.ts";
import type { Range } from "./types.ts";

/** A top-level `const`: its initializer, its statement, whether it is exported. */
export interface TopConst { init: ts.Expression; statement: ts.VariableStatement; exported: boolean }

/** A source file's top-level consts by name. */
export function topConstsOf(sf: ts.SourceFile): Map<string, TopConst> {
  const consts = new Map<string, TopConst>();
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const)) continue;
    const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword);
    for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) consts.set(d.name.text, { init: d.initializer, statement: st, exported });
  }
  return consts;
}

export type ExportedByName = { local: { init: ts.Expression; statement: ts.VariableStatement }; exported: ts.Identifier }[];

/** `export { a, b as c }` (no `from`) of a top-level const that is not exported itself: its const and the exported name. */
export function constsExportedByName(sf: ts.SourceFile, constsByName: () => Map<string, TopConst>): ExportedByName {
  const out: ExportedByName = [];
  for (const st of sf.statements) {
    if (!ts.isExportDeclaration(st) || st.moduleSpecifier || st.isTypeOnly || !st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
    for (const el of st.exportClause.elements) {
      const local = constsByName().get((el.propertyName ?? el.name).text);
      if (local && !local.exported && ts.isIdentifier(el.name) && !el.isTypeOnly) out.push({ local, exported: el.name });
    }
  }
  return out;
}

const isWorkflowInit = (init: ts.Expression): boolean => ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isCallExpression(init);

/**
 * The workflows a workflow source exports (A10's "exported workflow"): exported functions with a
 * body (`export async function run(ctx) {…}`, `export default function …`: "default"; an
 * overload's signatures are not workflows of their own) and a default export whose value is a
 * function or a call (`export default async (ctx) => {…}`: "default", the lens at the statement),
 * in order; then exported consts whose initialiser is a function (or a call), in order; then those
 * exported by name (`const run = async (ctx) => …; export { run as nightly }`), then one exported
 * as default by name (`export default run`, as `export { run as default }` is), and functions
 * exported so (`async function run(ctx) {…}; export { run }`), then as default, by their exported
 * name, with the lens at the local's name, where the workflow is written. Names are interned
 * (`intern.ts`): the text can go. (`vouch.ts`'s `workflowsNoted` reads the same, in the same order.)
 */
export function readWorkflows(sf: ts.SourceFile, r: (node: ts.Node) => Range, exportedByName: ExportedByName): WorkflowFact[] {
  const workflows: WorkflowFact[] = [];
  /** `export default run;`: the names exported as default. */
  const defaultNames: string[] = [];
  for (const st of sf.statements) {
    if (ts.isExportAssignment(st) && !st.isExportEquals) {
      if (ts.isIdentifier(st.expression)) defaultNames.push(st.expression.text);
      else if (isWorkflowInit(unwrap(st.expression))) workflows.push({ name: "default", range: r(st), declaration: r(st) });
      continue;
    }
    if (!ts.isFunctionDeclaration(st) || !st.body || !hasModifier(st, ts.SyntaxKind.ExportKeyword)) continue;
    const name = hasModifier(st, ts.SyntaxKind.DefaultKeyword) ? "default" : st.name?.text;
    if (name !== undefined) workflows.push({ name: intern(name), range: r(st.name ?? st), declaration: r(st) });
  }
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !hasModifier(st, ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of st.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.initializer && isWorkflowInit(unwrap(d.initializer))) workflows.push({ name: intern(d.name.text), range: r(d.name), declaration: r(st) });
    }
  }
  const byConst = (name: string, local: { init: ts.Expression; statement: ts.VariableStatement }) => {
    const decl = local.statement.declarationList.declarations.find((d) => d.initializer === local.init);
    if (decl && isWorkflowInit(unwrap(local.init))) workflows.push({ name: intern(name), range: r(decl.name), declaration: r(local.statement) });
  };
  for (const { local, exported } of exportedByName) byConst(exported.text, local);
  // (A const exported itself is a workflow by its own name already, as for `export { … }`.)
  const consts = defaultNames.length > 0 ? topConstsOf(sf) : undefined;
  for (const name of defaultNames) {
    const local = consts!.get(name);
    if (local && !local.exported) byConst("default", local);
  }
  const byFunction = (exported: string, local: string) => {
    const fn = sf.statements.find((f): f is ts.FunctionDeclaration => ts.isFunctionDeclaration(f) && f.name?.text === local && !!f.body && !hasModifier(f, ts.SyntaxKind.ExportKeyword));
    if (fn) workflows.push({ name: intern(exported), range: r(fn.name!), declaration: r(fn) });
  };
  for (const st of sf.statements) {
    if (!ts.isExportDeclaration(st) || st.moduleSpecifier || st.isTypeOnly || !st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
    for (const el of st.exportClause.elements) {
      if (el.isTypeOnly || !ts.isIdentifier(el.name)) continue;
      byFunction(el.name.text, (el.propertyName ?? el.name).text);
    }
  }
  for (const name of defaultNames) byFunction("default", name);
  return workflows;
}
