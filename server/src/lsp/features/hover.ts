/** Hover: a resource type's contracts and fields, a collection's key, fields and operations, a declaration's lock binding, a `secret("NAME")`'s binding. */
import type { Hover, HoverParams } from "vscode-languageserver/node";
import { BATCH_OPS, COLLECTION_OPS, type Analysis, type Collection, type Declaration } from "../../core/analysis.ts";
import { unfoundText, type ResourceType } from "../../core/connectors.ts";
import { relOfKey, type LockFacts } from "../../core/lockfile-read.ts";
import { unreadFile } from "../../core/rules/lockfile.ts";
import { secretMarkdown } from "../../core/describe.ts";
import type { Session } from "../session.ts";
import { locate, targetAt } from "./target.ts";

export function hover(session: Session, params: HoverParams): Hover | null {
  const loc = locate(session, params.textDocument.uri);
  if (!loc) return null;
  const t = targetAt(loc, params.position);
  if (!t) return null;
  let md: string;
  switch (t.kind) {
    case "opRef":
      md = t.collections.length ? t.collections.map((c) => collectionMarkdown(c, t.ref.op)).join("\n\n---\n\n") : `\`data.${t.ref.collection}.${t.ref.op}\`: no such collection`;
      break;
    case "collection":
      md = collectionMarkdown(t.collection);
      break;
    case "declaration":
    case "desiredKey":
      md = declarationMarkdown(t.decl, loc.analysis.company.lock());
      break;
    case "lockBinding":
      md = `**${t.binding.key}** → \`${t.binding.object}\` (${t.binding.type})\n\n` + (t.decl ? `declared in \`${t.decl.file.rel}\` as ${t.decl.type?.id ?? "an unknown type"}` : undeclared(t.binding.key, loc.analysis));
      break;
    case "secret":
      md = secretMarkdown(t.call.name, t.binding, t.bindings);
      break;
  }
  if (session.options.markdownHover === false) return { contents: { kind: "plaintext", value: plainText(md) } };
  return { contents: { kind: "markdown", value: md } };
}

/**
 * What a binding no declaration declares is, as the lockfile rule judges it: an orphan, unless its
 * file is there but unread by us (it does not load, or lies in a folder left out), where what that
 * file declares is unknown and the rule says nothing.
 */
function undeclared(key: string, analysis: Analysis): string {
  const rel = relOfKey(key);
  switch (unreadFile(rel, analysis)) {
    case "fails to load": return `\`${rel}\` does not load (syntax errors): what it declares is unknown`;
    case "left out": return `\`${rel}\` lies in a folder left out (\`exclude\`): it is not read, so what it declares is unknown`;
    case undefined: return "no declaration declares it (an orphan)";
  }
}

/** The hover's markdown as a client that shows only plain text would best show it: no `**`, no backticks. */
export function plainText(md: string): string {
  return md.replace(/\*\*/g, "").replace(/`/g, "");
}

export function typeMarkdown(type: ResourceType): string {
  const contracts = type.contracts.length ? type.contracts.map((c) => `\`${c}\``).join(", ") : "none";
  const lines = [`**${type.id}**${type.spec.title ? ` — ${type.spec.title}` : ""}`, "", `Contracts: ${contracts}${type.spec.writable?.value === true ? " · writable" : ""}${type.spec.stateless?.value === true ? " · stateless" : ""}`];
  const fields = type.spec.fields;
  if (fields) {
    lines.push("", `Fields${type.spec.strict ? " (strict)" : ""}:`);
    for (const [name, optional] of Object.entries(fields)) lines.push(`- \`${name}\`${optional ? " (optional)" : " (required)"}`);
  } else lines.push("", "Fields: unknown (the schema is not a `z.object({...})` literal)");
  return lines.join("\n");
}

function declarationMarkdown(d: Declaration, lock: LockFacts | undefined): string {
  const parts = [`\`${d.id}\``];
  if (d.type) parts.push(typeMarkdown(d.type));
  else if (d.resolution.kind === "missing") parts.push(`\`${d.resolution.module}\` has no type \`${d.resolution.name}\``);
  else if (d.resolution.kind === "unresolved") parts.push(`Type unknown: ${unfoundText(d.resolution.module, d.resolution.why)}`);
  else if (d.resolution.kind === "unknown") parts.push(`Type unknown: \`${d.resolution.module}\` cannot be read this far (its CommonJS exports, a module it re-exports, or one with syntax errors): nothing is checked of this declaration`);
  const binding = lock?.bindings.find((b) => b.key === d.id);
  parts.push(binding ? `Lock binding: \`${binding.object}\` (${binding.type})` : "Lock binding: none yet (apply will create the object)");
  return parts.join("\n\n");
}

export function collectionMarkdown(c: Collection, op?: string): string {
  const fields = c.fact.fields?.map((f) => `\`${f.name}\``).join(", ") ?? "unknown";
  const ops = COLLECTION_OPS.map((o) => (BATCH_OPS.has(o) ? `\`${o}\` (a batch: a policy decides its entries, each a save or a delete)` : `\`${o}\``)).join(", ");
  const head = op ? `**data.${c.name}.${op}**${BATCH_OPS.has(op) ? " — a batch: a policy decides its entries (each a save or a delete)" : ""}\n\n` : "";
  return `${head}Collection **${c.name}** (${c.scope === null ? "root scope" : `app ${c.scope}`}, \`${c.file.rel}\`)\n\nKey: \`${c.fact.key?.value ?? "?"}\`\n\nFields: ${fields}\n\nOperations: ${ops}`;
}
