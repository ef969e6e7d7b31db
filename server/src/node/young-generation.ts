/**
 * V8's young generation kept at its first size for a one-shot process (`sanoma-check`): a check
 * allocates much that lives long (every file's facts), which makes V8 grow the semi-spaces to
 * 16 MB each, about 30 MB of RSS at the peak for no speed a check can measure (issue 23; bench
 * figures in docs/bench.md). Imported first by the check's entry, before anything is allocated.
 * (The server cannot take it so: there the limit has to be `--max-semi-space-size` on the command
 * line, which the VS Code client passes; docs/settings.md says so for other clients.)
 */
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--semi-space-growth-factor=1");
