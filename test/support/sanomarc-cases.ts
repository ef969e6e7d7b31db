/**
 * Monorepos whose `.sanomarc.json` files say different things at different depths, each problem
 * marked under its line (a `.sanomarc.json`'s too: markers are removed from every file written),
 * with the folders `sanoma-check` is run on and the companies each run must list. The same cases
 * are run by `sanoma-check` (test/check/sanomarc.test.ts), the language server
 * (test/server/sanomarc.test.ts) and oxlint (test/lint/sanomarc.test.ts): the nearest file wins,
 * whole, for every company (B2), whichever folder is asked for.
 */
import { parseFixture } from "./fixture.ts";

export interface RcCase {
  name: string;
  /** The fixture: what every host reports, marked. */
  source: string;
  /**
   * Each folder `sanoma-check` is given (from the fixture's folder), with the companies it lists.
   * A run reports the marks in the files of those companies, and every mark in a `.sanomarc.json`.
   * The first is the folder the server and oxlint are run on.
   */
  runs: Record<string, string[]>;
}

export const RC_CASES: RcCase[] = [
  {
    name: "a company's own file holds for the company nested in it, in a folder the monorepo's file leaves out by name",
    source: `
//- /top/.sanomarc.json
{ "exclude": ["gen"] }
//- /top/co/.sanomarc.json
{}
//- /top/co/sanoma.config.ts
export default {};
//- /top/co/gen/sub/sanoma.config.ts
export default {};
//- /top/co/gen/sub/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
`,
    runs: { top: ["top/co", "top/co/gen/sub"], "top/co": ["top/co", "top/co/gen/sub"] },
  },
  {
    name: "a company with its own file, in a folder the monorepo's file leaves out by name; the monorepo's file holds for another company",
    source: `
//- /top/.sanomarc.json
{ "exclude": ["gen"] }
//- /top/gen/co/.sanomarc.json
{}
//- /top/gen/co/sanoma.config.ts
export default {};
//- /top/gen/co/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
//- /top/other/sanoma.config.ts
export default {};
//- /top/other/apps/a/gen/left-out.ts
import { x } from "../../b/lib/x";
//- /top/other/apps/a/lib/two.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
`,
    runs: { top: ["top/gen/co", "top/other"], "top/gen/co": ["top/gen/co"]},
  },
  {
    name: "a nested company's own file holds for it, in a folder the enclosing company's file leaves out",
    source: `
//- /top/co/.sanomarc.json
{ "exclude": ["gen"] }
//- /top/co/sanoma.config.ts
export default {};
//- /top/co/apps/a/gen/left-out.ts
import { x } from "../../b/lib/x";
//- /top/co/gen/sub/.sanomarc.json
{}
//- /top/co/gen/sub/sanoma.config.ts
export default {};
//- /top/co/gen/sub/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
`,
    runs: { top: ["top/co", "top/co/gen/sub"], "top/co": ["top/co", "top/co/gen/sub"] },
  },
  {
    name: "a company in a folder its own file leaves out (by name, by path) is passed over below the folder asked for, and listed with nothing judged at or above it",
    source: `
//- /top/.sanomarc.json
{ "exclude": ["templates", "old/co2"] }
//- /top/co/sanoma.config.ts
export default {};
//- /top/co/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
//- /top/templates/t/sanoma.config.ts
export default {};
//- /top/templates/t/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
//- /top/old/co2/sanoma.config.ts
export default {};
//- /top/old/co2/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
`,
    runs: { top: ["top/co"], "top/templates": ["top/templates/t"], "top/templates/t": ["top/templates/t"], "top/old/co2": ["top/old/co2"] },
  },
  {
    name: "a file below a company root, and one above a company with a file of its own, hold for no company: their problems are nobody's",
    source: `
//- /top/.sanomarc.json
{ "rules": { "bogus-top": "off" } }
//- /top/co/.sanomarc.json
{}
//- /top/co/apps/.sanomarc.json
{ "rules": { "bogus-inner": "off" } }
//- /top/co/sanoma.config.ts
export default {};
//- /top/co/apps/a/lib/one.ts
export const one = 1;
`,
    runs: { top: ["top/co"], "top/co": ["top/co"], "top/co/apps": ["top/co"] },
  },
  {
    name: "the file that holds for a company is said whichever of its folders is asked for; one below its root is not",
    source: `
//- /top/.sanomarc.json
{ "rules": { "bogus-top": "off" } }
//           ^^^^^^^^^^^ settings No rule named "bogus-top"
//- /top/co/apps/.sanomarc.json
{ "rules": { "bogus-inner": "off" } }
//- /top/co/sanoma.config.ts
export default {};
//- /top/co/apps/a/lib/one.ts
export const one = 1;
`,
    runs: { top: ["top/co"], "top/co": ["top/co"], "top/co/apps": ["top/co"] },
  },
  {
    name: "excluded folders that name nothing once read, or the company's own folder, are errors at the entry, and not applied",
    source: `
//- /co/.sanomarc.json
{ "exclude": ["./", "/", ".", "./.", "", "gen/"] }
//            ^^^^ settings "./" is no folder
//                  ^^^ settings "/" is no folder
//                       ^^^ settings "." leaves out the whole company
//                            ^^^^^ settings "./." leaves out the whole company
//                                   ^^ settings "" is no folder
//- /co/sanoma.config.ts
export default {};
//- /co/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
//- /co/apps/a/gen/left-out.ts
import { x } from "../../b/lib/x";
`,
    runs: { co: ["co"] },
  },
  {
    name: "a monorepo's file that names its own folder leaves out no company (an error at the entry)",
    source: `
//- /top/.sanomarc.json
{ "exclude": ["."] }
//            ^^^ settings leaves out the whole company
//- /top/a/sanoma.config.ts
export default {};
//- /top/a/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
//- /top/b/sanoma.config.ts
export default {};
//- /top/b/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
`,
    runs: { top: ["top/a", "top/b"], "top/a": ["top/a"] },
  },
  {
    name: "a lockfile binding of a file in a folder the file leaves out (by path, by name) is no orphan: the framework loads it, the check did not read it; one of a missing file elsewhere still is",
    source: `
//- /co/.sanomarc.json
{ "exclude": ["apps/billing", "generated"] }
//- /co/sanoma.config.ts
export default {};
//- /co/apps/billing/resources/queue.ts
export const queue = 1;
//- /co/apps/billing/lib/one.ts
import { x } from "../../b/lib/x";
//- /co/apps/a/lib/one.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
//- /co/sanoma.lock.json
{ "version": 1, "bindings": {
  "apps/billing/resources/queue.ts#queue": { "type": "fly.queue", "object": "fly:queue/billing" },
  "apps/billing/resources/gone.ts#q": { "type": "fly.queue", "object": "fly:queue/2" },
  "generated/resources/g.ts#g": { "type": "fly.queue", "object": "fly:queue/3" },
  "resources/gone.ts#c": { "type": "fly.queue", "object": "fly:queue/4" }
//^^^^^^^^^^^^^^^^^^^^^ lockfile Orphan binding: resources/gone.ts is no file of this company
} }
`,
    runs: { co: ["co"] },
  },
];

/** A problem as the cases compare them: `file:line:col-col rule`, its file from the fixture's folder (1-based, as printed). */
export const spot = (file: string, line: number, startCol: number, endCol: number, rule: string) => `${file}:${line + 1}:${startCol + 1}-${endCol + 1} ${rule}`;

/** What a run on `folder` reports of a case: the marks in its companies' files and in every `.sanomarc.json`, sorted; and the words each mark's message holds. */
export function expectedOf(c: RcCase, folder: string): { spots: string[]; words: Map<string, string> } {
  const companies = c.runs[folder];
  const words = new Map<string, string>();
  const spots: string[] = [];
  for (const e of parseFixture(c.source).expected) {
    if (!e.file.endsWith(".sanomarc.json") && !companies.some((co) => e.file.startsWith(`${co}/`))) continue;
    // (Of two nested companies, a file is the nearer one's: listed, both are, so either will do.)
    const s = spot(e.file, e.line, e.startCol, e.endCol, e.rule);
    spots.push(s);
    if (e.text) words.set(s, e.text);
  }
  return { spots: spots.sort(), words };
}
