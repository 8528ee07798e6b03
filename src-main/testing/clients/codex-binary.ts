/** Finds and runs the real codex CLI (the Linux binary `@openai/codex` installs) against a Leeway. */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BINARY = join(REPO_ROOT, 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');

/** Why the codex tests cannot run here, or null when they can. */
export function codexMissingReason(): string | null {
  if (platform() !== 'linux' || arch() !== 'x64')
    return `the codex binary is only located for linux-x64 (this is ${platform()}-${arch()})`;
  // A real binary is hundreds of MB; anything small is a placeholder.
  if (!existsSync(BINARY) || statSync(BINARY).size < 1_000_000) {
    return '@openai/codex-linux-x64 (node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex) is not installed';
  }
  return null;
}

export function findCodexBinary(): string | null {
  return codexMissingReason() === null ? BINARY : null;
}

export interface CodexRun {
  /** Exit code; null when killed (timeout). */
  code: number | null;
  /** The agent's final message (codex exec prints only that on stdout). */
  stdout: string;
  /** Banner, tool runs and warnings. */
  stderr: string;
}

export interface CodexOptions {
  /** Leeway's origin; the provider's base URL is `${baseUrl}/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Omitted: codex's own default model (no `-m`). */
  model?: string;
  timeoutMs?: number;
  /** More `-c key=value` overrides. */
  config?: string[];
}

/**
 * `codex exec --skip-git-repo-check -c model_provider=leeway -c model_providers.leeway={…} [-m <model>] <prompt>`
 * with a throwaway HOME (and CODEX_HOME in it), the key in `LEEWAY_KEY`, and none of the caller's
 * OpenAI or proxy variables inherited.
 */
export function runCodex(binary: string, prompt: string, options: CodexOptions): Promise<CodexRun> {
  const home = mkdtempSync(join(tmpdir(), 'leeway-codex-home-'));
  // codex refuses a CODEX_HOME that does not exist.
  mkdirSync(join(home, '.codex'));
  const provider = `model_providers.leeway={name="leeway",base_url="${options.baseUrl}/v1",env_key="LEEWAY_KEY",wire_api="responses"}`;
  const args = [
    'exec',
    '--skip-git-repo-check',
    '-c',
    'model_provider=leeway',
    '-c',
    provider,
    ...(options.config ?? []).flatMap((c) => ['-c', c]),
    ...(options.model === undefined ? [] : ['-m', options.model]),
    prompt,
  ];
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: join(home, '.codex'),
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    LEEWAY_KEY: options.apiKey,
  };
  return new Promise((resolve) => {
    const child = execFile(
      binary,
      args,
      { env, cwd: home, timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        rmSync(home, { recursive: true, force: true });
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    // codex exec appends piped stdin to the prompt; an ended stdin means "nothing more".
    child.stdin?.end();
  });
}
