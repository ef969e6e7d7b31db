/**
 * What a hover says of a target that more than one surface shows (the language server's hover,
 * the TypeScript plugin's quick info), in markdown: written once, so they say the same.
 */
import { CONFIG_FILE } from "./company.ts";
import type { SecretBindingFact } from "./facts.ts";
import type { SecretBindingsKnown } from "./target.ts";

/** A `secret("NAME")` call: its binding in the config (A7), or why there is none to show. */
export function secretMarkdown(name: string, binding: SecretBindingFact | undefined, known: SecretBindingsKnown): string {
  if (binding) {
    const lines = [`Secret **${name}**: bound in \`${CONFIG_FILE}\``, ""];
    if (binding.env) lines.push(`- from the environment variable \`${binding.env.value}\` where apply runs`);
    else if (binding.envUnknown) lines.push("- from an environment variable named by an expression");
    if (binding.bootstrap) lines.push("- `bootstrap: true`: made at bootstrap");
    if (binding.host === true) lines.push("- given to the hosts (`host: true`)");
    else if (binding.host === "unknown") lines.push("- `host` set by an expression");
    if (lines.length === 2) lines.push("- no `env` or `bootstrap` written");
    return lines.join("\n");
  }
  if (known === "unknown") return `Secret **${name}**: whether \`${CONFIG_FILE}\` binds it is not known (its bindings cannot all be read without running it, or it does not load)`;
  return `Secret **${name}**: no binding of that name in \`${CONFIG_FILE}\`${known === "none" ? " (it has no `secrets.bindings`)" : ""}; apply will look for it in the secret store`;
}
