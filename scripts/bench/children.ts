/**
 * Child processes of the benchmark: spawned with a stopwatch, considered started when a line of
 * their stdout matches, and always reaped — on success, on error, on SIGINT/SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface Child {
  name: string;
  pid: number;
  /** What the ready line captured (its first group), e.g. the listening origin. */
  readyValue: string;
  /** Milliseconds from spawn() to the ready line. */
  startMs: number;
  /** performance.now() just before spawn(). */
  spawnedAt: number;
  /** False once the process has exited. */
  running(): boolean;
  /** The last lines the process wrote (stdout and stderr), for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  name: string;
  /** The program; node (this process's executable) unless given, e.g. taskset to pin a core. */
  command?: string;
  args: string[];
  cwd: string;
  /** Matched against each stdout line; group 1 (or the whole match) becomes readyValue. */
  ready: RegExp;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Sees every stdout line (e.g. to count --trace-gc lines); the ready line too. */
  onLine?: (line: string) => void;
}

const live = new Set<ChildProcess>();
let hooksInstalled = false;
let interruptedBy: NodeJS.Signals | null = null;

/** The signal that interrupted the bench, if one did (its handler then owns the exit). */
export function interrupted(): NodeJS.Signals | null {
  return interruptedBy;
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // Last resort: whatever is still running when the bench exits is killed outright.
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interruptedBy) return;
      interruptedBy = signal;
      console.error(`\nbench: ${signal}, stopping child processes`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

/** Stops every child still running (SIGTERM, then SIGKILL). */
export async function stopAll(graceMs = 3000): Promise<void> {
  await Promise.all([...live].map((child) => terminate(child, graceMs)));
}

function terminate(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    live.delete(child);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      live.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Spawns `node <args>` and resolves when the ready line appears; rejects on exit or timeout. */
export function spawnNode(options: SpawnOptions): Promise<Child> {
  installHooks();
  const timeoutMs = options.timeoutMs ?? 20_000;
  const startedAt = performance.now();
  // stdin stays a pipe: the bench's own children exit when it closes (the bench died).
  const proc = spawn(options.command ?? process.execPath, options.args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(proc);
  const lines: string[] = [];
  const remember = (line: string) => {
    lines.push(line);
    if (lines.length > 40) lines.shift();
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once('exit', (code, signal) => {
      live.delete(proc);
      resolve({ code, signal });
    });
  });
  let stderrTail = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (text: string) => {
    const parts = (stderrTail + text).split('\n');
    stderrTail = parts.pop() ?? '';
    for (const line of parts) remember(`[stderr] ${line}`);
  });

  return new Promise((resolve, reject) => {
    let tail = '';
    let ready = false;
    const timer = setTimeout(() => {
      if (ready) return;
      void terminate(proc, 500);
      reject(new Error(`${options.name} did not get ready within ${timeoutMs} ms:\n${lines.join('\n')}`));
    }, timeoutMs);
    proc.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(({ code, signal }) => {
      if (ready) return;
      clearTimeout(timer);
      reject(
        new Error(`${options.name} exited (code ${code}, signal ${signal}) before it was ready:\n${lines.join('\n')}`),
      );
    });
    proc.stdout?.setEncoding('utf8');
    proc.stdout?.on('data', (text: string) => {
      const parts = (tail + text).split('\n');
      tail = parts.pop() ?? '';
      for (const line of parts) {
        remember(line);
        options.onLine?.(line);
        if (ready) continue;
        const match = options.ready.exec(line);
        if (!match) continue;
        ready = true;
        clearTimeout(timer);
        const pid = proc.pid;
        if (pid === undefined) return reject(new Error(`${options.name} has no pid`));
        resolve({
          name: options.name,
          pid,
          readyValue: match[1] ?? match[0],
          startMs: performance.now() - startedAt,
          spawnedAt: startedAt,
          running: () => proc.exitCode === null && proc.signalCode === null,
          output: () => lines.join('\n'),
          stop: (graceMs = 5000) => terminate(proc, graceMs),
          exited,
        });
      }
    });
  });
}
