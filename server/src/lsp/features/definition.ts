/** Go to definition: op id → collection; declaration ↔ lock binding; call → its `defineResource`; `secret("NAME")` → its binding in the config. */
import type { DefinitionParams, Location } from "vscode-languageserver/node";
import type { Session } from "../session.ts";
import { secretBindingLocation } from "../../core/target.ts";
import { locate, targetAt } from "./target.ts";

export function definition(session: Session, params: DefinitionParams): Location[] | null {
  const loc = locate(session, params.textDocument.uri);
  if (!loc) return null;
  const t = targetAt(loc, params.position);
  if (!t) return null;
  const a = loc.analysis;
  switch (t.kind) {
    case "opRef":
      return t.collections.map((c) => ({ uri: session.uriOf(c.file.path), range: c.nameRange }));
    case "declaration": {
      if (t.on === "callee" && t.decl.type) return [{ uri: session.uriOf(t.decl.type.file), range: t.decl.type.spec.range }];
      if (a.company.lockText === undefined) return null;
      const b = a.company.lock()?.bindings.find((x) => x.key === t.decl.id);
      return b ? [{ uri: session.uriOf(a.company.lockPath), range: b.keyRange }] : null;
    }
    case "lockBinding":
      return t.decl ? [{ uri: session.uriOf(t.decl.file.path), range: t.decl.fact.nameRange }] : null;
    case "desiredKey":
      return t.decl.type ? [{ uri: session.uriOf(t.decl.type.file), range: t.decl.type.spec.range }] : null;
    case "collection":
      return [{ uri: session.uriOf(t.collection.file.path), range: t.collection.nameRange }];
    case "secret": {
      const at = t.binding && secretBindingLocation(a, t.binding);
      return at ? [{ uri: session.uriOf(at.file), range: at.range }] : null;
    }
  }
  return null;
}
