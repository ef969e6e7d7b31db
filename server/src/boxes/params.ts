/**
 * A run's parameters and a port, checked before anything is made or recorded (SPEC B4): what a
 * client sends is unknown input, refused with a clear message (InvalidParams over LSP).
 */

/** `expose(port)`: the URL where the box's port is reachable from this machine. */
export function expose(port: number): string {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`${port} is no port number`);
  return `http://127.0.0.1:${port}`;
}

/**
 * Refuses a run's parameters that no command could be started with, before anything is made or
 * recorded: a command that is no text, a NUL character anywhere in the command, the working
 * folder or the environment (a system call would cut the string there: the run would never
 * start, yet be recorded as running), an environment that is no object of texts, a variable's
 * name that is empty or holds `=`.
 */
export function checkRunParams(params: { command: unknown; cwd?: unknown; env?: unknown }): void {
  const { command, cwd, env } = params;
  if (typeof command !== "string") throw new TypeError("command must be the text of a bash command");
  if (command.includes("\0")) throw new TypeError("command holds a NUL character: no command can be started with it");
  if (cwd !== undefined && typeof cwd !== "string") throw new TypeError("cwd must be a path");
  if (typeof cwd === "string" && cwd.includes("\0")) throw new TypeError("cwd holds a NUL character: no folder is named so");
  if (env === undefined) return;
  if (typeof env !== "object" || env === null || Array.isArray(env)) throw new TypeError("env must be an object of variables");
  for (const [key, value] of Object.entries(env)) {
    if (key === "" || key.includes("=") || key.includes("\0")) throw new TypeError(`env: ${JSON.stringify(key)} is no variable's name`);
    if (typeof value !== "string") throw new TypeError(`env.${key} must be text`);
    if (value.includes("\0")) throw new TypeError(`env.${key} holds a NUL character: no variable can hold it`);
  }
}

/**
 * An optional parameter as a client sent it: absent, or `null` (a client that writes an absent
 * optional as null, Emacs's), is undefined; else it must be of `type`, or the request is refused
 * (a `"4"` read as 0 replayed a whole log; a run id of another type stopped nothing, silently).
 */
export function optional<T extends "string" | "number">(params: object | undefined, key: string, type: T, what: string): (T extends "string" ? string : number) | undefined {
  const value = (params as Record<string, unknown> | undefined)?.[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== type) throw new TypeError(`${key} must be ${what}, or absent: ${JSON.stringify(value)} is not`);
  return value as T extends "string" ? string : number;
}
