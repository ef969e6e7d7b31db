// Types of scripts/code-server.mjs, for the TypeScript end-to-end tests that use it.
import type { ChildProcess } from "node:child_process";

export declare const e2eDir: string;
export declare const node24: string;
export declare const baseSettings: Record<string, unknown>;
export interface Profile { dir: string; userData: string; extensions: string; tmp: string; xdg: string }
export interface RunningCodeServer { url: string; port: number; child: ChildProcess; log(): string; stop(): void }
export declare function ensureCodeServer(options?: { quiet?: boolean }): void;
export declare function makeProfile(dir: string, settings?: Record<string, unknown>): Profile;
export declare function installExtension(profile: Profile, vsix: string): string;
export declare function freePort(): Promise<number>;
export declare function startCodeServer(options: { profile: Profile; folder: string; port?: number; stdio?: "inherit" | "pipe" }): Promise<RunningCodeServer>;
export declare function extensionLogs(profile: Profile): { path: string; text: string }[];
