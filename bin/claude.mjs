// `leeway claude [args…]`, like `ccr code`: make sure a Leeway runs on the data directory
// (starting one in the background if needed; it keeps running for the next session), then run
// Claude Code with ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN pointing at it.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants as os } from 'node:os';
import path from 'node:path';
import { connectionsNotice } from './connections-notice.mjs';
import { headlessArgs, LauncherError } from './entry.mjs';
import { ensureRunning } from './instance.mjs';
import { localKey } from './local-key.mjs';

const isExecutable = (file) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** `claude` on PATH, else the Claude Code package installed beside Leeway, else null. */
export function findClaude(env, platform = process.platform) {
  const names = platform === 'win32' ? ['claude.exe', 'claude.cmd'] : ['claude'];
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean))
    for (const name of names) if (isExecutable(path.join(dir, name))) return path.join(dir, name);
  try {
    const manifest = createRequire(import.meta.url).resolve('@anthropic-ai/claude-code/package.json');
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
    const relative = typeof bin === 'string' ? bin : bin?.claude;
    const file = relative ? path.join(path.dirname(manifest), relative) : null;
    return file && existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** Claude Code's environment: Leeway's URL and key; a real ANTHROPIC_API_KEY would win over them. */
export function claudeEnv(env, proxyUrl, key) {
  const { ANTHROPIC_API_KEY: _dropped, ...rest } = env;
  return { ...rest, ANTHROPIC_BASE_URL: proxyUrl, ANTHROPIC_AUTH_TOKEN: key };
}

export async function runClaudeCommand(args, env) {
  const log = (line) => console.error(line);
  const claude = findClaude(env);
  if (!claude) throw new LauncherError('Claude Code is not installed: npm install -g @anthropic-ai/claude-code');
  const running = await ensureRunning(env, await headlessArgs(env), log);
  const proxyUrl = `http://127.0.0.1:${running.port}`;
  const key = await localKey({ env, dataDir: running.dataDir, proxyUrl, log });
  // Claude Code starts anyway: a connection added in the dashboard now serves its next request.
  for (const line of (await connectionsNotice({ env, dataDir: running.dataDir, proxyUrl })) ?? []) log(line);
  const child = spawn(claude, args, {
    stdio: 'inherit',
    env: claudeEnv(env, proxyUrl, key),
    shell: claude.endsWith('.cmd'),
  });
  // Ctrl-C reaches Claude Code from the terminal itself (same process group): passing it on would
  // make it a double Ctrl-C. Other signals are meant for this command and are passed on.
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(new LauncherError(`cannot run ${claude}: ${error.message}`)));
    child.on('exit', (code, signal) => resolve(code ?? 128 + (os.signals[signal] ?? 1)));
  });
}
