/**
 * `defineResource({...})` calls (A4): the spec each defines, its contract flags read as their
 * values (a flag held in a top-level const too), its schema's fields and their optionality.
 */
import ts from "./typescript.ts";
import { isFrameworkModule } from "./company.ts";
import type { ResourceSpecFact, SpecFlag } from "./fact-types.ts";
import type { TreeContext } from "./tree-context.ts";
import { chainIsOptional, literalTruth, unwrap } from "./ts-nodes.ts";

/** The readers of specs over one tree: `specOfCall`, and `throughConsts`, which the config's reader uses too. */
export function specReader(ctx: Pick<TreeContext, "r" | "facts" | "nameText" | "constsByName">): { specOfCall: TreeContext["specOfCall"]; throughConsts(e: ts.Expression | undefined): ts.Expression | undefined } {
  const { r, facts, nameText, constsByName } = ctx;
  const isDefineResourceCallee = (e: ts.Expression): boolean => {
    e = unwrap(e);
    // `(0, workflows_1.defineResource)(…)`: how tsc compiles a call of an import to CommonJS.
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.CommaToken) e = unwrap(e.right);
    if (ts.isPropertyAccessExpression(e)) return e.name.text === "defineResource";
    if (!ts.isIdentifier(e)) return false;
    if (e.text === "defineResource") return true;
    // `import { defineResource as define } from "@sanoma-ai/workflows"`
    const b = facts.bindings.get(e.text);
    return b !== undefined && b.imported === "defineResource" && isFrameworkModule(b.source);
  };

  const specIndex = new Map<ts.Node, number>();
  const specOfCall = (call: ts.CallExpression): number | undefined => {
    if (!isDefineResourceCallee(call.expression)) return undefined;
    const known = specIndex.get(call);
    if (known !== undefined) return known;
    const arg = call.arguments[0] && unwrap(call.arguments[0]);
    const spec: ResourceSpecFact = { range: r(call) };
    if (arg && ts.isObjectLiteralExpression(arg)) readSpecProperties(arg, spec, 0);
    const index = facts.specs.push(spec) - 1;
    specIndex.set(call, index);
    return index;
  };

  /**
   * A spec's properties in order, a later key over an earlier one as JavaScript has it. A spread
   * (`...base`) of a top-level const's object literal is read as if written in its place (its
   * keys where the const writes them). A spread of anything else may set any key: what it could
   * make `writable` or `stateless` is unknown then (the definition rules say nothing of it), and
   * the schema's fields are unknown; a contract it might add is not counted.
   */
  function readSpecProperties(literal: ts.ObjectLiteralExpression, spec: ResourceSpecFact, depth: number): void {
    for (const p of literal.properties) {
      if (ts.isSpreadAssignment(p)) {
        const spread = throughConsts(unwrap(p.expression));
        if (spread !== undefined && ts.isObjectLiteralExpression(spread) && depth < 8) {
          readSpecProperties(spread, spec, depth + 1);
        } else {
          spec.writable = spec.stateless = { value: "unknown", keyRange: r(p) };
          delete spec.fields;
          delete spec.strict;
        }
        continue;
      }
      if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) continue;
      const key = nameText(p.name);
      if (key === undefined) continue;
      const value = ts.isPropertyAssignment(p) ? p.initializer : undefined;
      // A flag held in a top-level const (`sandbox: spec`, `{ sandbox }`) is read as its value.
      const flag = (): SpecFlag => {
        const held = throughConsts(value === undefined ? (p.name as ts.Identifier) : unwrap(value));
        return { value: held === undefined ? "unknown" : literalTruth(held), keyRange: r(p.name) };
      };
      switch (key) {
        case "vendor": case "type": case "title":
          if (value && ts.isStringLiteralLike(value)) spec[key] = value.text;
          else delete spec[key];
          break;
        case "writable": case "stateless": case "vendorless": case "database": case "wakeup": case "sandbox":
          spec[key] = flag();
          break;
        case "host":
          spec.host = flag();
          if (value && ts.isObjectLiteralExpression(value)) {
            for (const hp of value.properties) {
              if (ts.isPropertyAssignment(hp) && nameText(hp.name) === "source" && ts.isStringLiteralLike(hp.initializer)) spec.hostSource = hp.initializer.text;
            }
          }
          break;
        case "schema":
          delete spec.fields;
          delete spec.strict;
          if (value) readSchema(value, spec);
          break;
      }
    }
  }

  function readSchema(value: ts.Expression, spec: ResourceSpecFact) {
    const e = unwrap(value);
    if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression)) return;
    const method = e.expression.name.text;
    if (method !== "object" && method !== "strictObject") return;
    const shape = e.arguments[0] && unwrap(e.arguments[0]);
    if (!shape || !ts.isObjectLiteralExpression(shape)) return;
    // No prototype: a field may be named `constructor` or `__proto__`.
    const fields: Record<string, boolean> = Object.create(null);
    for (const p of shape.properties) {
      if (ts.isSpreadAssignment(p)) return; // spreads make the field list unknowable
      if (!p.name) continue;
      const key = nameText(p.name);
      if (key === undefined) return;
      fields[key] = ts.isPropertyAssignment(p) ? chainIsOptional(p.initializer) : false;
    }
    spec.fields = fields;
    spec.strict = method === "strictObject";
  }

  /**
   * A top-level `const`'s value, for an identifier that names one (followed a few times, so
   * `const bindings = {…}; const config = defineConfig({ secrets: { bindings } }); export default config`
   * reads as the literal would); anything else as it is.
   */
  function throughConsts(e: ts.Expression | undefined): ts.Expression | undefined {
    for (let hops = 0; e !== undefined && ts.isIdentifier(e) && hops < 8; hops++) {
      const init = constsByName().get(e.text)?.init;
      if (init === undefined) break;
      e = unwrap(init);
    }
    return e;
  }
  return { specOfCall, throughConsts };
}
