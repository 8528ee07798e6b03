import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir, parseArgs, usage } from './cli/parse-args';
import { createCore } from './core';

/** The built dashboard sits next to the built entry (out/main → out/renderer). */
function findRendererDir(): string | null {
  const candidate = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
  return existsSync(join(candidate, 'index.html')) ? candidate : null;
}

/** Headless entry: the core with its proxy and web dashboard, no Electron. */
async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2), process.env, {
    dataDir: defaultDataDir(process.platform, process.env, homedir()),
  });
  if (!parsed.ok) {
    for (const error of parsed.errors) console.error(`Headroom: ${error}`);
    console.error('Run with --help for the options.');
    process.exit(2);
  }
  const options = parsed.value;
  if (options.help) {
    console.log(usage());
    return;
  }
  for (const warning of options.warnings) console.warn(`Headroom: warning: ${warning}`);
  const core = createCore({
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    allowRemote: options.allowRemote,
    mode: 'headless',
    rendererDir: findRendererDir(),
    ...(options.adminPort !== undefined ? { adminPort: options.adminPort } : {}),
    ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
    ...(options.adminToken !== undefined ? { adminToken: options.adminToken } : {}),
  });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Headroom: ${signal} received, stopping`);
    void core.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  const started = await core.start();
  if (!started.ok) {
    console.error(`Headroom: ${started.error.message}`);
    process.exit(1);
  }
  console.log(`Headroom ${core.info().version} running headless (data: ${options.dataDir})`);
  console.log(`Proxy:     ${started.value.proxyUrl}   (ANTHROPIC_BASE_URL; OpenAI clients use ${started.value.proxyUrl}/v1)`);
  console.log(`Dashboard: ${started.value.dashboardUrl}`);

}

void main();
