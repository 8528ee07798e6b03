import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fail, ok, type Result } from '../src-shared/contract/errors';
import type { ProxyInfo } from '../src-shared/contract/methods';
import { createAdminHandler, type AdminHandler } from './admin/admin-handler';
import { resolveAdminToken } from './admin-token';
import { createEventBus, type EventBus } from './api/event-bus';
import { createKeyVerifier } from './api/key-verifier';
import { createHandlers } from './api/handlers/create-handlers';
import { createRouter, type Router } from './api/router';
import { applyConfig } from './config/apply-config';
import { loadConfig } from './config/load-config';
import { openStorage, type Storage } from './db/storage';
import { listen, urlOf } from './listen';
import { testConnection } from './providers/test-connection';
import { createUpstreamPools } from './providers/upstream-pools';
import { assembleClaude, lookUpMissingOrganizations } from './providers/claude-oauth/claude-assembly';
import type { ClaudeRuntime } from './providers/claude-oauth/claude-runtime';
import { toView } from './db/connections-repo';
import { createConnectionSlots } from './proxy/connection-slots';
import { createProxyHandler, createProxyServer } from './proxy/server';
import type { ProxyContext } from './proxy/proxy-context';
import { buildCatalog, type Catalog } from './routing/catalog';
import type { SecretBox } from './secrets/secret-box';
import { createResilienceRuntime, type ResilienceRuntime } from './resilience/resilience-runtime';
import { HEADROOM_VERSION } from './version';

export interface CoreOptions {
  dataDir: string;
  host: string;
  port: number;
  /** A separate port for the dashboard and admin API; by default they share the proxy's. */
  adminPort?: number;
  allowRemote: boolean;
  configFile?: string;
  adminToken?: string;
  mode: 'electron' | 'headless';
  /** Built renderer to serve as the web dashboard; null when there is none. */
  rendererDir?: string | null;
  /** Electron's safeStorage in the app; a 0600 key file headless. */
  secretBox?: SecretBox;
  log?: (line: string) => void;
  now?: () => number;
}

export interface StartedInfo {
  proxyUrl: string;
  dashboardUrl: string;
  adminToken: string;
}

export interface Core {
  start(): Promise<Result<StartedInfo>>;
  stop(): Promise<void>;
  router: Router;
  events: EventBus;
  info(): ProxyInfo;
}

const FLUSH_EVERY_MS = 1_000;
const PRUNE_EVERY_MS = 60 * 60_000;

/** The composition root: storage, catalog, proxy, admin door and their timers, started and stopped as one. */
export function createCore(options: CoreOptions): Core {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.log(line));
  const events = createEventBus();
  let storage: Storage | null = null;
  let resilience: ResilienceRuntime | null = null;
  let claude: ClaudeRuntime | null = null;
  let catalog: Catalog = buildCatalog([], []);
  let info: ProxyInfo | null = null;
  let admin: AdminHandler | null = null;
  const servers: Server[] = [];
  const timers: NodeJS.Timeout[] = [];
  const pools = createUpstreamPools();

  const need = (): Storage => {
    if (!storage) throw new Error('core not started');
    return storage;
  };
  const needResilience = (): ResilienceRuntime => {
    if (!resilience) throw new Error('core not started');
    return resilience;
  };
  const reloadCatalog = () => {
    const s = need();
    catalog = buildCatalog(
      s.connections.list().map((c) => ({ view: c, secret: c.secret })),
      s.combos.list(),
    );
  };
  const currentInfo = (): ProxyInfo => {
    if (!info) throw new Error('core not started');
    return { ...info, paused: need().settings.get().paused };
  };

  const router = createRouter(
    createHandlers({
      get db() { return need().db; },
      get connections() { return need().connections; },
      get keys() { return need().keys; },
      get combos() { return need().combos; },
      get settings() { return need().settings; },
      get requestLog() { return need().requestLog; },
      get resilience() { return needResilience().control; },
      get resilienceSettings() { return needResilience().settings; },
      events,
      now,
      info: currentInfo,
      reloadCatalog,
      claudeStatus: () => claude?.status(catalog.connections) ?? [],
      testConnection: async (name) => {
        const connection = catalog.byName.get(name);
        return connection ? testConnection(pools, connection, now) : null;
      },
    }),
    (method) => log(`Headroom: internal error in ${method}`),
  );

  async function start(): Promise<Result<StartedInfo>> {
    mkdirSync(options.dataDir, { recursive: true });
    const opened = openStorage(join(options.dataDir, 'headroom.sqlite'), options.dataDir, options.secretBox);
    if (!opened.ok) return opened;
    const s = (storage = opened.value);

    if (options.configFile) {
      const loaded = loadConfig(options.configFile, new Set(s.connections.list().map((c) => c.name)));
      if (!loaded.ok) {
        s.close();
        storage = null;
        const lines = loaded.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
        return fail('invalid_input', `Invalid config file ${options.configFile}:\n${lines}`, { details: { problems: loaded.problems } });
      }
      const applied = applyConfig(s, loaded.value, now());
      if (!applied.ok) {
        s.close();
        storage = null;
        return applied;
      }
    }
    reloadCatalog();
    const r = (resilience = createResilienceRuntime(s.db, process.env, () => catalog, events, now));

    const settingsCache = { value: s.settings.get() };
    const claudeDeps = {
      connections: s.connections,
      control: r.control,
      settings: () => settingsCache.value,
      catalog: () => catalog,
      connectionsChanged: () => {
        // The core may have stopped while a background lookup was in flight.
        if (!storage) return;
        reloadCatalog();
        events.emit('connections.changed', { connections: s.connections.list().map(toView) });
      },
      events,
      now,
    };
    claude = assembleClaude(claudeDeps);
    lookUpMissingOrganizations(claudeDeps);
    events.subscribe((e) => {
      if (e.type === 'settings.changed') settingsCache.value = e.payload.settings;
    });
    const ctx: ProxyContext = {
      catalog: () => catalog,
      settings: () => settingsCache.value,
      verifyKey: createKeyVerifier(s.keys, events, now),
      pools,
      resilience: r.port,
      slots: createConnectionSlots(),
      claude,
      log,
      now,
      record: (entry) => events.emit('activity.request', { entry: s.requestLog.append(entry) }),
      allowedHosts: new Set(options.allowRemote && options.host !== '0.0.0.0' && options.host !== '::' ? [options.host] : []),
      version: HEADROOM_VERSION,
    };
    const adminToken = resolveAdminToken(options.dataDir, options.adminToken);
    if (adminToken.length < 16) {
      s.close();
      storage = null;
      return fail('invalid_input', 'HEADROOM_ADMIN_TOKEN must be at least 16 characters');
    }
    admin = createAdminHandler({ router, events, token: adminToken, rendererDir: options.rendererDir ?? null, log });

    const split = options.adminPort !== undefined;
    const proxyServer = createProxyServer(createProxyHandler(ctx, split ? null : admin));
    servers.push(proxyServer);
    const port = await listen(proxyServer, options.host, options.port, '--port');
    if (!port.ok) {
      await stop();
      return port;
    }
    let adminUrl = urlOf(options.host, port.value);
    if (split && options.adminPort !== undefined) {
      // The admin door keeps the proxy's guards (Host, Origin) but answers no /v1 route.
      const adminServer = createProxyServer(createProxyHandler({ ...ctx, verifyKey: () => null }, admin));
      servers.push(adminServer);
      const adminPort = await listen(adminServer, '127.0.0.1', options.adminPort, '--admin-port');
      if (!adminPort.ok) {
        await stop();
        return adminPort;
      }
      adminUrl = urlOf('127.0.0.1', adminPort.value);
    }

    timers.push(setInterval(() => s.requestLog.flush(), FLUSH_EVERY_MS).unref());
    const prune = () => {
      const cfg = settingsCache.value;
      s.requestLog.prune(now(), cfg.requestLogMaxRows, cfg.requestLogMaxAgeDays);
    };
    prune();
    timers.push(setInterval(prune, PRUNE_EVERY_MS).unref());

    const proxyUrl = urlOf(options.host, port.value);
    const dashboardUrl = `${adminUrl}/?token=${encodeURIComponent(adminToken)}`;
    info = { proxyUrl, dashboardUrl: adminUrl + '/', dataDir: options.dataDir, version: HEADROOM_VERSION, paused: false, startedAt: now(), mode: options.mode };
    return ok({ proxyUrl, dashboardUrl, adminToken });
  }

  async function stop(): Promise<void> {
    for (const t of timers.splice(0)) clearInterval(t);
    admin?.closeAll();
    await Promise.all(
      servers.splice(0).map(
        (server) =>
          new Promise<void>((resolve) => {
            if (!server.listening) return resolve();
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
    await pools.close();
    storage?.close();
    storage = null;
    resilience = null;
    claude = null;
  }

  return { start, stop, router, events, info: currentInfo };
}
