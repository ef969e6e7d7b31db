/**
 * The `sanoma-check` process: wires the check to the real disk, stdout and stderr. What goes to
 * stdout is written at the end, in one piece; what goes to stderr is written at once until the
 * first stdout text is waiting, then queued after it, so the summary comes last on a terminal.
 */
import "../node/young-generation.ts";
import { nodeFileSystem } from "../node/fs.ts";
import { runCheck } from "./cli.ts";
import { writeIfUnchanged } from "./write.ts";

const queue: { to: "out" | "err"; text: string }[] = [];
let outWaiting = false;

const code = runCheck(process.argv.slice(2), {
  fs: nodeFileSystem,
  cwd: process.cwd(),
  out: (text) => { outWaiting = true; queue.push({ to: "out", text }); },
  err: (text) => { if (outWaiting) queue.push({ to: "err", text }); else process.stderr.write(text); },
  now: () => Date.now(),
  env: process.env,
  tty: { out: process.stdout.isTTY === true, err: process.stderr.isTTY === true },
  writeIfUnchanged,
});

/** Writes the queue in order, each write after the one before has been flushed, then exits. */
function drain(): void {
  // Consecutive pieces for one stream are joined: one write for the whole of a big report.
  const first = queue.shift();
  if (!first) { process.exit(code); return; }
  let text = first.text;
  while (queue.length && queue[0].to === first.to) text += queue.shift()!.text;
  (first.to === "out" ? process.stdout : process.stderr).write(text, drain);
}
drain();
