import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core, type CoreOptions } from '../core/core';
import { readEnv } from '../core/env';

export const TEST_LOCAL_KEY = 'lw-test-local-key-0123456789';
export const TEST_ADMIN_TOKEN = 'test-admin-token-abcdefghijklmnop';

export interface RunningLeeway {
  core: Core;
  /** Every human-readable log line (state changes, requests, warnings), as the terminal would show it. */
  lines: string[];
  /** Proxy origin, e.g. http://127.0.0.1:PORT */
  url: string;
  key: string;
  adminToken: string;
  dataDir: string;
  logs: string[];
  stop(): Promise<void>;
}

/**
 * Starts a real core (SQLite file, proxy on port 0) from a config object, the same way
 * `npm start -- --config FILE` does; a `keys` entry with TEST_LOCAL_KEY is added unless given.
 */
export async function startLeeway(
  config: Record<string, unknown>,
  extra: {
    rendererDir?: string | null;
    dataDir?: string;
    /** The core's clock (e.g. pinned to the middle of a quota window so a test never straddles a bucket edge). */
    now?: () => number;
    wrapQuotaStore?: CoreOptions['wrapQuotaStore'];
    /** Ask upstreams for their model lists (issue 13 §5); off by default so fakes see only the test's requests. */
    modelDiscovery?: boolean;
    onDatabase?: CoreOptions['onDatabase'];
  } = {},
): Promise<RunningLeeway> {
  const dataDir = extra.dataDir ?? mkdtempSync(join(tmpdir(), 'leeway-it-'));
  const file = join(dataDir, 'config.json');
  const withKey = { keys: [{ name: 'test', key: TEST_LOCAL_KEY }], ...config };
  writeFileSync(file, JSON.stringify(withKey));
  const logs: string[] = [];
  const lines: string[] = [];
  const core = createCore({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    allowRemote: false,
    configFile: file,
    adminToken: TEST_ADMIN_TOKEN,
    mode: 'headless',
    // As the entry does: the environment as it is now (a test sets its variables before starting).
    env: readEnv(process.env),
    rendererDir: extra.rendererDir ?? null,
    log: (line) => logs.push(line),
    logTerminal: (line) => lines.push(line),
    ...(extra.now ? { now: extra.now } : {}),
    ...(extra.wrapQuotaStore ? { wrapQuotaStore: extra.wrapQuotaStore } : {}),
    ...(extra.onDatabase ? { onDatabase: extra.onDatabase } : {}),
    modelDiscovery: extra.modelDiscovery ?? false,
  });
  const started = await core.start();
  if (!started.ok) throw new Error(`Leeway did not start: ${started.error.message}`);
  return {
    core,
    url: started.value.proxyUrl,
    key: TEST_LOCAL_KEY,
    adminToken: TEST_ADMIN_TOKEN,
    dataDir,
    logs,
    lines,
    async stop() {
      await core.stop();
      if (!extra.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Anthropic connection entry pointing at a fake upstream. */
export function anthropicConnection(
  name: string,
  url: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { name, kind: 'anthropic', baseUrl: url, apiKey: `sk-ant-secret-${name}-0000`, ...extra };
}

/** OpenAI-compatible connection entry pointing at a fake upstream (`/v1` appended). */
export function openaiConnection(
  name: string,
  url: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { name, kind: 'openai-compatible', baseUrl: `${url}/v1`, apiKey: `sk-openai-secret-${name}-0000`, ...extra };
}
