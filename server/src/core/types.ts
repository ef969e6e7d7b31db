/**
 * The vocabulary the core speaks: positions, problems and the file system it reads through.
 * Architecture invariant: nothing under `core/` imports `vscode`, `vscode-languageserver`, `fs`,
 * `child_process` or reads `process`; IO reaches it through `FileSystem`, protocols never.
 */
import type { RuleId } from "./rules/ids.ts";
import type { Steps } from "./steps.ts";

/** A zero-based line and UTF-16 character, as LSP counts them. */
export interface Position { line: number; character: number }
export interface Range { start: Position; end: Position }

export type Severity = "error" | "warning" | "info" | "hint";

/** The rule ids of SPEC B1, written once in `rules/ids.ts` (a module with no imports). */
export type { RuleId };

export interface Location { file: string; range: Range }
export interface RelatedInfo extends Location { message: string }
export interface TextEdit { file: string; range: Range; newText: string }
export interface Fix { title: string; edits: TextEdit[]; preferred?: boolean }

/** One problem a rule found: absolute file path, tight range, default severity. */
export interface Problem {
  rule: RuleId;
  severity: Severity;
  file: string;
  range: Range;
  message: string;
  related?: RelatedInfo[];
  tags?: ("unnecessary" | "deprecated")[];
  fixes?: Fix[];
}

/**
 * A big text as the pieces it was read in, each but the last ending at a line's end (a piece holds
 * a line whole, however long). Never made one string: that copies it all in one go, and on a slow
 * machine a 40 MB lockfile's copy alone holds the event loop 150–250 ms. Joined only where a
 * string is needed after all (a lockfile that is not of the usual shape).
 */
export type TextInPieces = readonly string[];

/** A lockfile's text: as an editor holds it, or as read from disk in pieces. */
export type LockText = string | TextInPieces;

/**
 * The most of one file a FileSystem reads (`node/fs.ts`): far above what a source file may hold to
 * be read at all, and what a lockfile of a hundred thousand bindings takes. A bigger file is read
 * this far and one byte more, enough to be told too large, and memory stays bounded.
 */
export const MAX_READ_BYTES = 64 * 1024 * 1024;

export interface DirEntry { name: string; kind: "file" | "dir" | "symlink" | "other" }

/**
 * Files read ahead of their turn by someone else (the package's `sanoma-check`: the thread that
 * started its worker, node/read-ahead.ts). The core takes what is offered, in the order it asked
 * for, and reads for itself whatever is not: a helper that gives nothing changes only the time.
 */
export interface ReadAhead {
  /** The files about to be read, in this order. */
  start(files: readonly string[]): void;
  /** `file`'s text as read ahead (as `FileSystem.readFile` reads it); undefined: read it yourself. */
  take(file: string): string | undefined;
  /** Nothing more will be taken: the rest is let go. */
  end(): void;
}

/**
 * The only door to the disk. Every method returns undefined (or false) when the path cannot be read:
 * a missing file, a directory without permission, a file deleted while being read. Never throws.
 */
export interface FileSystem {
  readFile(path: string): string | undefined;
  /**
   * `readFile`, a piece a step (see `steps.ts`), where the file system can: the server reads a
   * lockfile of 40 MB so, answering requests between the pieces. The same text, in pieces that
   * are never joined (see `TextInPieces`).
   */
  readFileSteps?(path: string): Steps<TextInPieces | undefined>;
  /** A folder's entries, or undefined when it cannot be read (no permission, gone). */
  readDir(path: string): DirEntry[] | undefined;
  isFile(path: string): boolean;
  isDir(path: string): boolean;
  /** The canonical path (symlinks resolved), or undefined. */
  realPath(path: string): string | undefined;
  /**
   * False when nothing bears the path for certain (no entry of that name, not even a link that
   * leads nowhere); true when something does (a link is not followed), or when that cannot be told
   * (no permission). One look at the path, where a listing of its folder would cost what the folder
   * holds: a file system without it is listed (`findSanomaRc`).
   */
  mayExist?(path: string): boolean;
}
