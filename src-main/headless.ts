import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir, parseArgs, usage } from './cli/parse-args';
import { createCore } from './core';
import { LOGS_DIR } from './observability/observability';

/** The built dashboard sits next to the built entry (out/main → out/renderer). */
function findRendererDir(): string | null {
  const candidate = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
  return existsSync(join(candidate, 'index.html')) ? candidate : null;
}

/** How long a SIGTERM/SIGINT stop may take before the process exits anyway. */
const STOP_DEADLINE_MS = 15_000;

/** Headless entry: the core with its proxy and web dashboard, no Electron. */
async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2), process.env, {
    dataDir: defaultDataDir(process.platform, process.env, homedir()),
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
    rendererDir: findRendererDir(),
    logLevel: options.logLevel,
    ...(options.adminPort !== undefined ? { adminPort: options.adminPort } : {}),
    ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
    ...(options.adminToken !== undefined ? { adminToken: options.adminToken } : {}),
  });
  // core.stop() waits for requests in flight to be logged and flushes the request log before the
  // database closes; only then may the process exit. A second signal, or a stop past the deadline,
  // exits at once and loses, as kill -9 would, what the log buffered since its last flush.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      console.error(`Leeway: ${signal} received again, exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    console.log(`Leeway: ${signal} received, stopping`);
    setTimeout(() => {
      console.error(`Leeway: did not stop within ${STOP_DEADLINE_MS / 1000} s, exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    core.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Leeway: stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  const started = await core.start();
  if (!started.ok) {
    console.error(`Leeway: ${started.error.message}`);
    process.exit(1);
  }
  console.log(`Leeway ${core.info().version} running headless (data: ${options.dataDir})`);
  console.log(
    `Proxy:     ${started.value.proxyUrl}   (ANTHROPIC_BASE_URL; OpenAI clients use ${started.value.proxyUrl}/v1)`,
  );
  // The dashboard link stays the last line: it is the one to open.
  console.log(`Logs:      ${join(options.dataDir, LOGS_DIR)} (level ${options.logLevel}; metrics at /metrics)`);
  console.log(`Dashboard: ${started.value.dashboardUrl}`);
}

void main();
