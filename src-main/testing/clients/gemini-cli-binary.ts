/** Runs the real Gemini CLI (`@google/gemini-cli`, a bundled Node script) against a Leeway. */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = join(REPO_ROOT, 'node_modules/@google/gemini-cli/bundle/gemini.js');

/** Why the Gemini CLI tests cannot run here, or null when they can. */
export function geminiCliMissingReason(): string | null {
  return existsSync(SCRIPT)
    ? null
    : '@google/gemini-cli is not installed (node_modules/@google/gemini-cli/bundle/gemini.js)';
}

export interface GeminiCliRun {
  /** Exit code; null when killed (timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface GeminiCliOptions {
  /** Leeway's origin: GOOGLE_GEMINI_BASE_URL. */
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  /** More CLI arguments (e.g. `--yolo` so a tool call runs without asking). */
  args?: string[];
  /** Files written in the working folder (the throwaway HOME) before the run. */
  files?: Record<string, string>;
}

/**
 * `gemini -m <model> -p <prompt>` with a throwaway HOME whose `.gemini/settings.json` selects API-key
 * auth (the CLI asks for it interactively otherwise), `GEMINI_API_KEY` = the local key and
 * `GOOGLE_GEMINI_BASE_URL` = Leeway; none of the caller's Google or proxy variables inherited.
 */
export function runGeminiCli(prompt: string, options: GeminiCliOptions): Promise<GeminiCliRun> {
  const home = mkdtempSync(join(tmpdir(), 'leeway-gemini-home-'));
  mkdirSync(join(home, '.gemini'));
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    // No telemetry, update checks or usage statistics leave the machine during a test.
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    telemetry: { enabled: false },
  };
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(home, name), text);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    GEMINI_API_KEY: options.apiKey,
    GOOGLE_GEMINI_BASE_URL: options.baseUrl,
    // Not a terminal: no colour codes in what the test reads.
    NO_COLOR: '1',
    CI: '1',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
  const args = [SCRIPT, '-m', options.model, ...(options.args ?? []), '-p', prompt];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { env, cwd: home, timeout: options.timeoutMs ?? 60_000, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        rmSync(home, { recursive: true, force: true });
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
