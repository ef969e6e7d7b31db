/** Runs the core check over a fixture company on disk, as `sanoma-check` does, and returns what it found. */
import { relative } from "node:path";
import { Workspace } from "../../server/src/core/workspace.ts";
import { nodeFileSystem } from "../../server/src/node/fs.ts";
import type { Problem } from "../../server/src/core/types.ts";
import type { Found } from "./fixture.ts";

export function checkDir(dir: string): Problem[] {
  const ws = new Workspace(nodeFileSystem);
  const out: Problem[] = [];
  for (const root of ws.discoverRoots([dir])) {
    ws.loadCompany(root);
    out.push(...ws.check(root).problems);
  }
  return out;
}

export function toFound(dir: string, problems: Problem[]): Found[] {
  return problems.map((p) => ({
    file: relative(dir, p.file).split("\\").join("/"), line: p.range.start.line, startCol: p.range.start.character,
    endCol: p.range.end.line === p.range.start.line ? p.range.end.character : p.range.start.character + 1, rule: p.rule, message: p.message,
  }));
}
