import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir, parseArgs, usage } from './cli/parse-args';
import { createCore } from './core/core';
import { readEnv } from './core/env';
import { END_WRITE_BOUND_MS } from './core/shutdown';
import { LOGS_DIR } from './observability/observability';

/** The built dashboard sits next to the built entry (out/main → out/renderer). */
function findRendererDir(): string | null {
  const candidate = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
  return existsSync(join(candidate, 'index.html')) ? candidate : null;
}

/** Beyond the grace and the ends' bound: closing storage and flushing the log; past it the process exits anyway. */
const STOP_MARGIN_MS = 5_000;

/** A second signal exits at once with the shell's code for it (128 + its number). */
const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** Headless entry: the core with its proxy and web dashboard, no Electron. */
async function main(): Promise<void> {
  // Issue 22: the environment is read here once and passed down; nothing below reads the environment itself.
  const env = readEnv(process.env);
  const parsed = parseArgs(process.argv.slice(2), env.vars, {
    dataDir: defaultDataDir(process.platform, env.vars, homedir()),
  });
  if (!parsed.ok) {
    for (const error of parsed.errors) console.error(`Leeway: ${error}`);
    console.error('Run with --help for the options.');
    process.exit(2);
  }
  const options = parsed.value;
  if (options.help) {
    console.log(usage());
    return;
  }
  for (const warning of options.warnings) console.warn(`Leeway: warning: ${warning}`);
  const core = createCore({
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    allowRemote: options.allowRemote,
    mode: 'headless',
    env,
    rendererDir: findRendererDir(),
    logLevel: options.logLevel,
    ...(options.adminPort !== undefined ? { adminPort: options.adminPort } : {}),
    ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
    ...(options.adminToken !== undefined ? { adminToken: options.adminToken } : {}),
  });
  // Issue 21 §9: the first signal drains — no new requests, those in flight get the grace, the rest
  // end with an error in their client's format, each is logged, the log is flushed — and exits 0.
  // A second signal exits at once and loses, as kill -9 would, what the log buffered since its last
  // flush (at most a second of rows). The launchers (npm start, leeway start) send exactly one
  // signal per Ctrl-C (bin/supervise.mjs), so a second one is a person's.
  let stopping = false;
  const shutdown = (why: string, signal: string | null) => {
    if (stopping) {
      if (signal === null) return;
      console.error(`Leeway: ${signal} received again, exiting without waiting`);
      process.exit(EXIT_CODES[signal] ?? 1);
    }
    stopping = true;
    const grace = options.shutdownGraceMs;
    const again = signal === 'SIGINT' ? ' (Ctrl-C again exits at once)' : '';
    console.log(`Leeway: ${why}, stopping${again}`);
    const deadline = grace + END_WRITE_BOUND_MS + STOP_MARGIN_MS;
    setTimeout(() => {
      console.error(`Leeway: did not stop within ${Math.round(deadline / 1000)} s, exiting`);
      process.exit(1);
    }, deadline).unref();
    core.stop({ graceMs: grace }).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Leeway: stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => shutdown(`${signal} received`, signal));
  // A launcher that keeps an IPC channel to us (bin/supervise.mjs) runs us in our own process group;
  // if it dies without passing a signal on (kill -9), the channel closes and we stop as for SIGTERM.
  if (process.channel) {
    process.channel.unref();
    process.on('disconnect', () => shutdown('the launcher exited', null));
  }
  const started = await core.start();
  if (!started.ok) {
    console.error(`Leeway: ${started.error.message}`);
    process.exit(1);
  }
  console.log(`Leeway ${started.value.info().version} running headless (data: ${options.dataDir})`);
  console.log(
    `Proxy:     ${started.value.proxyUrl}   (ANTHROPIC_BASE_URL; OpenAI clients use ${started.value.proxyUrl}/v1)`,
  );
  // The dashboard link stays the last line: it is the one to open.
  console.log(`Logs:      ${join(options.dataDir, LOGS_DIR)} (level ${options.logLevel}; metrics at /metrics)`);
  console.log(`Dashboard: ${started.value.dashboardUrl}`);
}

void main();
