import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Result } from '../../src-shared/contract/errors';
import type { CoreEvent } from '../../src-shared/contract/events';
import type { ProxyInfo } from '../../src-shared/contract/methods';
import type { NewRequestLogEntry, RequestLogEntry } from '../../src-shared/domain/request-log';
import { STORAGE_OK } from '../../src-shared/domain/storage-status';
import { createHandlers } from '../api/handlers/create-handlers';
import type { HandlerDeps } from '../api/handlers/handler-deps';
import { createEventBus } from '../kernel/event-bus';
import { createRouter } from '../api/router';
import { ENGINE_STORES } from '../core/engine-stores';
import { createSqliteQuotaStore } from '../core/sqlite-quota-store';
import { resilienceStoresOf } from '../db/resilience-rows';
import { openStorage, type Storage } from '../db/storage';
import { resolveQuotaConfig } from '../quota/engine/quota-config';
import { createQuotaRuntime } from '../quota/runtime/quota-runtime';
import { createQuotaStoreFactory } from '../quota/store/store-factory';
import { createResilienceRuntime } from '../resilience/resilience-runtime';
import { createCatalogService } from '../services/catalog-service';
import { createSettingsService } from '../services/settings-service';

/**
 * The core's real contract handlers over `:memory:` SQLite, in process, for the renderer's
 * behaviour-heavy component tests (`*.real.test.tsx`): renames that combos follow, Claude Code
 * setup and undo on a temporary HOME, quota pools and plans, settings round trips. No proxy, no
 * upstream: `connections.test` answers "reachable" and Claude status is empty.
 */
export interface RendererCore {
  /** The renderer's Transport, structurally: the router's answer to every contract call. */
  call(method: string, input: unknown): Promise<Result<unknown>>;
  onEvent(listener: (event: CoreEvent) => void): () => void;
  storage: Storage;
  /** The fake HOME whose `.claude/settings.json` the setup methods write. */
  home: string;
  /** That settings.json: its text, or null when there is no file; `write` puts one there first. */
  claudeSettings: { path: string; read(): string | null; write(text: string): void };
  /** Any file under the fake HOME by its relative path (the agents' setup, issue 23 §2): text, or null when absent. */
  homeFile: { read(relative: string): string | null; write(relative: string, text: string): void };
  /** A finished request as the proxy records it: appended to the log, then `activity.request`. */
  recordRequest(entry: Partial<NewRequestLogEntry>): RequestLogEntry;
  close(): void;
}

const BLANK_REQUEST: NewRequestLogEntry = {
  ts: 0,
  keyName: null,
  apiFormat: 'anthropic',
  endpoint: '/v1/messages',
  model: 'claude-sonnet-4-5',
  connection: null,
  status: 200,
  stream: false,
  latencyMs: 100,
  ttfbMs: null,
  inputTokens: null,
  outputTokens: null,
  cacheReadTokens: null,
  cacheWriteTokens: null,
  failover: [],
  errorCode: null,
  servedVia: null,
  sessionPin: null,
};

export async function startRendererCore(now: () => number = () => Date.now()): Promise<RendererCore> {
  const home = mkdtempSync(join(tmpdir(), 'leeway-renderer-'));
  const opened = openStorage(':memory:', home, { now: now(), clock: now, engines: ENGINE_STORES });
  if (!opened.ok) throw new Error(opened.error.message);
  const storage = opened.value;
  const events = createEventBus();
  const settings = createSettingsService(storage.settings);
  const config = () => resolveQuotaConfig(settings.get().quotaStore, {});
  const store = createQuotaStoreFactory({
    openLocal: (report) => createSqliteQuotaStore(storage.db, { log: report }),
    config,
    log: () => {},
  });
  await store.ready();
  const quota = createQuotaRuntime({
    store,
    storeState: () => store.status(),
    pools: storage.quotaPools,
    config,
    log: () => {},
    now,
  });
  quota.reload();
  // The real catalog service: the quota index follows the pools, keys and connections the tests write.
  const catalog = createCatalogService({
    changes: storage.changes,
    sources: {
      connections: storage.connections.list,
      combos: storage.combos.list,
      routes: storage.routes.list,
      discovered: () => [],
    },
    quota,
    log: () => {},
  });
  const resilience = createResilienceRuntime(resilienceStoresOf(storage.db), {}, catalog.get, events, now);
  const info = (): ProxyInfo => ({
    proxyUrl: 'http://127.0.0.1:7431',
    dashboardUrl: 'http://127.0.0.1:7431/',
    dataDir: home,
    version: '0.0.0-renderer',
    paused: settings.get().paused,
    startedAt: 0,
    mode: 'headless',
    storage: STORAGE_OK,
  });
  const deps: HandlerDeps = {
    ...storage,
    settings,
    quota: { usage: quota.usage, storeStatus: quota.storeStatus },
    resilience: resilience.control,
    resilienceSettings: resilience.settings,
    events,
    now,
    info,
    env: { HOME: home },
    claudeStatus: () => [],
    testConnection: (name) =>
      Promise.resolve(
        storage.connections.getByName(name)
          ? { ok: true, status: 200, latencyMs: 1, message: 'Connected in 1 ms', models: [] }
          : null,
      ),
  };
  const settingsPath = join(home, '.claude', 'settings.json');
  const router = createRouter(createHandlers(deps));
  return {
    call: (method, input) => router.call(method, input),
    onEvent: (listener) => events.subscribe(listener),
    storage,
    home,
    claudeSettings: {
      path: settingsPath,
      read: () => (existsSync(settingsPath) ? readFileSync(settingsPath, 'utf8') : null),
      write(text) {
        mkdirSync(join(home, '.claude'), { recursive: true });
        writeFileSync(settingsPath, text);
      },
    },
    homeFile: {
      read: (relative) => (existsSync(join(home, relative)) ? readFileSync(join(home, relative), 'utf8') : null),
      write(relative, text) {
        mkdirSync(dirname(join(home, relative)), { recursive: true });
        writeFileSync(join(home, relative), text);
      },
    },
    recordRequest(partial) {
      const entry = storage.requestLog.append({ ...BLANK_REQUEST, ts: now(), ...partial });
      events.emit('activity.request', { entry });
      return entry;
    },
    close() {
      catalog.close();
      void store.close();
      storage.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
