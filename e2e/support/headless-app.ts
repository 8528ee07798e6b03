import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (e2e/support → ../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const HEADLESS_ENTRY = path.join(ROOT, 'out', 'main', 'headless.js');

/** Fails with the fix in the message when the build the e2e suite drives is missing. */
export function assertBuilt(): void {
  const missing = [HEADLESS_ENTRY, path.join(ROOT, 'out', 'renderer', 'index.html')].filter((f) => !existsSync(f));
  if (missing.length > 0) {
    throw new Error(
      `e2e needs the built app, missing: ${missing.map((f) => path.relative(ROOT, f)).join(', ')}. ` +
        'Run `npm run build` first (npm test and npm run e2e build automatically).',
    );
  }
}

export interface HeadlessApp {
  /** e.g. http://127.0.0.1:PORT — from the `Proxy:` line. */
  proxyUrl: string;
  /** The one-time sign-in link with `?token=` — from the `Dashboard:` line. */
  dashboardUrl: string;
  /** Everything the child wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process has exited. */
  stop(): Promise<void>;
}

export interface StartHeadlessOptions {
  dataDir: string;
  configFile: string;
  adminToken: string;
  timeoutMs?: number;
}

/** Spawns `node out/main/headless.js --port 0` and waits for its `Proxy:` and `Dashboard:` lines. */
export async function startHeadless(options: StartHeadlessOptions): Promise<HeadlessApp> {
  assertBuilt();
  const child = spawn(
    process.execPath,
    [HEADLESS_ENTRY, '--port', '0', '--data-dir', options.dataDir, '--config', options.configFile],
    {
      cwd: ROOT,
      // Model discovery off: the specs count what their fake upstreams receive (discovery has its own tests).
      env: { ...process.env, LEEWAY_ADMIN_TOKEN: options.adminToken, LEEWAY_MODEL_DISCOVERY: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const urls = await waitForUrls(child, () => out, options.timeoutMs ?? 20_000);
    return { ...urls, output: () => out, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function waitForUrls(
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<{ proxyUrl: string; dashboardUrl: string }> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const tick = (): void => {
      const text = output();
      const proxy = /^Proxy:\s+(\S+)/m.exec(text)?.[1];
      const dashboard = /^Dashboard:\s+(\S+)/m.exec(text)?.[1];
      if (proxy !== undefined && dashboard !== undefined) return resolve({ proxyUrl: proxy, dashboardUrl: dashboard });
      if (child.exitCode !== null || child.signalCode !== null) {
        return reject(
          new Error(`headless Leeway exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${text}`),
        );
      }
      if (Date.now() >= deadline) {
        return reject(new Error(`headless Leeway printed no Proxy:/Dashboard: lines within ${timeoutMs} ms:\n${text}`));
      }
      setTimeout(tick, 25);
    };
    tick();
  });
}
