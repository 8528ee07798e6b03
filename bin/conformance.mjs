// `leeway conformance [flags…]`: the conformance suite of this checkout (src-main/testing/conformance,
// run through tsx: it drives the dev dependencies — Claude Code, codex, the SDKs). Flags go to the
// suite unchanged. Without --url or --self it tests the Leeway running on the data directory:
// configured through its admin API (LEEWAY_ADMIN_TOKEN, else <data-dir>/admin-token), with the
// local key `leeway claude` uses; both reach the suite in its environment, not on a command line.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants as os } from 'node:os';
import path from 'node:path';
import { LauncherError, root } from './entry.mjs';
import { answersHealth, dataDirOf, runningOn } from './instance.mjs';
import { adminAccess, localKey } from './local-key.mjs';

export const SUITE = path.join(root, 'src-main', 'testing', 'conformance', 'cli.ts');

/** Whether the flags already say which gateway to test (or only ask for help). */
export function namesGateway(args) {
  return args.some((arg) => /^--(url|self|help)(=|$)/.test(arg) || arg === '-h');
}

/** `--url` (and `--admin-url`) plus the environment that test the Leeway running on the data directory. */
async function runningLeeway(env) {
  const dataDir = dataDirOf(env);
  const running = runningOn(dataDir);
  if (!running?.port || !(await answersHealth(running.port)))
    throw new LauncherError(
      `no Leeway runs on ${dataDir}: start one (leeway start), or give --self (a throwaway Leeway of this checkout) or --url and --key (any gateway)`,
    );
  const proxyUrl = `http://127.0.0.1:${running.port}`;
  const admin = adminAccess(env, dataDir, proxyUrl);
  if (!admin) throw new LauncherError(`no admin token (LEEWAY_ADMIN_TOKEN or ${path.join(dataDir, 'admin-token')})`);
  const key = await localKey({ env, dataDir, proxyUrl, log: (line) => console.error(line) });
  const args = ['--url', proxyUrl, ...(admin.url === proxyUrl ? [] : ['--admin-url', admin.url])];
  return { args, env: { LEEWAY_KEY: key, LEEWAY_ADMIN_TOKEN: admin.token } };
}

export async function runConformanceCommand(args, env) {
  if (!existsSync(SUITE))
    throw new LauncherError(
      `leeway conformance runs from a source checkout with its dev dependencies (${SUITE} is missing)`,
    );
  let tsx;
  try {
    tsx = import.meta.resolve('tsx');
  } catch {
    throw new LauncherError(`leeway conformance needs the dev dependencies: run npm install in ${root}`);
  }
  const target = namesGateway(args) ? { args: [], env: {} } : await runningLeeway(env);
  const child = spawn(process.execPath, ['--import', tsx, SUITE, ...target.args, ...args], {
    stdio: 'inherit',
    env: { ...env, ...target.env },
  });
  // Ctrl-C reaches the suite from the terminal itself; it cleans up what it configured.
  process.on('SIGINT', () => {});
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(new LauncherError(`cannot run the suite: ${error.message}`)));
    child.on('exit', (code, signal) => resolve(code ?? 128 + (os.signals[signal] ?? 1)));
  });
}
