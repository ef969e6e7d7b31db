/** The `sanoma-check` process: wires the check to the real disk, stdout and stderr. */
import { nodeFileSystem } from "../node/fs.ts";
import { runCheck } from "./cli.ts";

const chunks: string[] = [];
const code = runCheck(process.argv.slice(2), {
  fs: nodeFileSystem,
  cwd: process.cwd(),
  out: (t) => chunks.push(t),
  err: (t) => process.stderr.write(t),
  now: () => Date.now(),
});
process.stdout.write(chunks.join(""), () => process.exit(code));
