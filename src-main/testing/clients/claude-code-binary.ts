/** Finds and runs the real Claude Code CLI (the native binary npm installed) against a Leeway. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCOPE = join(REPO_ROOT, 'node_modules', '@anthropic-ai');

/** The wrapper's placeholder before postinstall is a small script; the real binary is >100 MB. */
const MIN_BINARY_BYTES = 1_000_000;

function isRealBinary(file: string): boolean {
  return existsSync(file) && statSync(file).isFile() && statSync(file).size > MIN_BINARY_BYTES;
}

/**
 * The platform package's binary (`@anthropic-ai/claude-code-linux-x64/claude`, or the musl
 * variant), else the copy postinstall put at `@anthropic-ai/claude-code/bin/claude.exe`.
 */
export function findClaudeBinary(): string | null {
  const key = `${platform()}-${arch()}`;
  const exe = platform() === 'win32' ? 'claude.exe' : 'claude';
  const candidates = [
    join(SCOPE, `claude-code-${key}`, exe),
    join(SCOPE, `claude-code-${key}-musl`, exe),
    join(SCOPE, 'claude-code', 'bin', 'claude.exe'),
  ];
  return candidates.find(isRealBinary) ?? null;
}

export interface ClaudeRun {
  /** Exit code; null when killed (timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** The HOME it ran in: a throwaway one, already deleted, unless the caller gave its own. */
  home: string;
}

/**
 * `claude ...args` with a throwaway HOME, pointed at `baseUrl` with `apiKey`, telemetry and
 * updates off, and none of the caller's proxy or Anthropic variables inherited.
 */
export function runClaude(
  binary: string,
  args: string[],
  /** `home`: keep sessions between runs (`--resume`); the caller deletes it. */
  options: { baseUrl: string; apiKey: string; env?: Record<string, string>; timeoutMs?: number; home?: string },
): Promise<ClaudeRun> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'leeway-claude-home-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    // Keep XDG lookups inside the throwaway home too.
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: options.apiKey,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...options.env,
  };
  return new Promise((resolve) => {
    const child = execFile(
      binary,
      args,
      { env, cwd: home, timeout: options.timeoutMs ?? 60_000, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (!options.home) rmSync(home, { recursive: true, force: true });
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, home });
      },
    );
    // `-p` appends piped stdin to the prompt; an ended stdin means "nothing more".
    child.stdin?.end();
  });
}
