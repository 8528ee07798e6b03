import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(__dirname, '..', '..', '..');

/** How a spawned headless process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The real headless entry in a child process, as a user runs it (`node --import tsx src-main/headless.ts`). */
export interface HeadlessProcess {
  /** Proxy origin; the admin door shares it (no --admin-port). */
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  output(): string;
  /** Sends `signal` and waits for the exit. */
  stop(signal: NodeJS.Signals): Promise<Exit>;
}

/** Spawns the headless entry on port 0 with a data dir, a config file and an admin token, and waits for its URLs. */
export async function spawnHeadless(opts: {
  dataDir: string;
  configFile: string;
  adminToken: string;
  /** More environment for the child (e.g. LEEWAY_SHUTDOWN_GRACE). */
  env?: Record<string, string>;
  /** How long the start may take; default 15 s (two processes on a loaded machine need more). */
  startTimeoutMs?: number;
}): Promise<HeadlessProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/headless.ts', '--data-dir', opts.dataDir, '--port', '0', '--config', opts.configFile],
    {
      cwd: root,
      env: {
        ...process.env,
        LEEWAY_PORT: undefined,
        LEEWAY_ADMIN_PORT: undefined,
        LEEWAY_ADMIN_TOKEN: opts.adminToken,
        // Startup model discovery would ask each fake upstream GET /v1/models and could take a
        // response a test scripted for its own request.
        LEEWAY_MODEL_DISCOVERY: '0',
        // A stop ends the requests in flight at once unless a test gives them a grace (issue 21 §9).
        LEEWAY_SHUTDOWN_GRACE: '0',
        ...opts.env,
      },
    },
  );
  let out = '';
  const collect = (chunk: Buffer) => void (out += chunk.toString());
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<Exit>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`headless did not start in time:\n${out}`)),
      opts.startTimeoutMs ?? 15_000,
    );
    const check = () => {
      const match = /Proxy: +(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!match?.[1] || !out.includes('Dashboard:')) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      done(match[1]);
    };
    child.stdout.on('data', check);
    void exited.then((e) => {
      clearTimeout(timer);
      fail(new Error(`headless exited (${e.code ?? e.signal}) before starting:\n${out}`));
    });
  });
  return {
    url,
    child,
    exited,
    output: () => out,
    stop(signal) {
      child.kill(signal);
      return exited;
    },
  };
}
