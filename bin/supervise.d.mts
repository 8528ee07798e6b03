// Types of supervise.mjs for the tests that import it.
import type { ChildProcess } from 'node:child_process';
export declare const SAME_SIGNAL_MS: number;
export declare function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number;
export declare function spawnSupervised(
  command: string,
  args: readonly string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; lifeline?: boolean },
): ChildProcess;
