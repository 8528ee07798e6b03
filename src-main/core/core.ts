import { ENGINE_STORES } from './engine-stores';
import { createTeamShareFor } from './team-wiring';
import type { TeamShare } from '../team/team-share';
import { existsSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fail, ok, type Result } from '../../src-shared/contract/errors';
import type { ProxyInfo } from '../../src-shared/contract/methods';
import { DEFAULT_SETTINGS, type Settings } from '../../src-shared/domain/settings';
import { createAdminHandler, type AdminHandler } from '../admin/admin-handler';
import { handlerDeps } from './handler-deps';
import { closeServers, createSettlingTracker, startQuotaGc, startStorageTimers } from './lifecycle';
import { drainRequests } from './shutdown';
import { announceStorageHealth, storageRefusal, storageStatusOf } from './storage';
import { resolveAdminToken } from './admin-token';
import { createEventBus, type EventBus } from '../kernel/event-bus';
import { createKeyVerifier } from '../api/key-verifier';
import { createHandlers } from '../api/handlers/create-handlers';
import { createRouter, type Router } from '../api/router';
import { applyConfig } from '../config/apply-config';
import { loadConfig, storedNamesOf, type ConfigProblem, type LoadedConfig } from '../config/load-config';
import { acquireDataDirLock, checkDataDirFree, type DataDirLock } from '../data-dir/data-dir-lock';
import { createDataDir, secureDataDir } from '../data-dir/data-dir-modes';
import { watchDataDir, type DataDirWatch } from '../data-dir/data-dir-watch';
import { createStorageGate, type StorageGate } from '../data-dir/storage-gate';
import { openStorage, type Storage } from '../db/storage';
import type { Database } from '../db/open';
import { describeStartFault, storageFaultOf } from '../db/storage-fault';
import type { StorageHealth } from '../db/storage-health';
import { listen, urlOf } from './listen';
import { describeAppliedConfig } from '../config/applied-line';
import { createModelDiscovery } from './discovery';
import { createDiscoveredModelsRepo } from '../db/discovered-models-repo';
import { createUpstreamPools } from '../providers/upstream-pools';
import { assembleClaude, lookUpMissingOrganizations } from '../providers/claude-oauth/claude-assembly';
import type { ClaudeRuntime } from '../providers/claude-oauth/claude-runtime';
import { createClaudeHooks } from '../providers/claude-oauth/claude-hooks';
import { createRoundRobinStore } from '../routing/strategies/round-robin-store';
import { toView } from '../db/connections-repo';
import { createConnectionSlots } from '../resilience/queue/connection-slots';
import { createInFlightRequests } from '../proxy/stages/in-flight';
import { createProxyHandler, createProxyServer } from '../proxy/accept/server';
import type { ProxyContext } from '../proxy/proxy-context';
import { type Catalog } from '../kernel/catalog';
import { buildCatalog } from '../routing/build-catalog';
import type { SecretBox } from '../secrets/secret-box';
import { createResilienceRuntime, type ResilienceRuntime } from '../resilience/resilience-runtime';
import { resilienceStoresOf } from '../db/resilience-rows';
import { resolveQuotaConfig } from '../quota/engine/quota-config';
import type { QuotaAdmin } from '../quota/quota-ports';
import { createQuotaRuntime, type QuotaRuntime } from '../quota/runtime/quota-runtime';
import { createQuotaShareDispatch } from '../quota/runtime/quota-share-dispatch';
import { createQuotaStoreFactory, type SwitchingQuotaStore } from '../quota/store/store-factory';
import { createSqliteQuotaStore } from './sqlite-quota-store';
import { LEEWAY_VERSION } from '../kernel/version';
import type { LogLevel } from '../observability/log-level';
import type { TerminalTarget } from '../observability/logger';
import { createObservability } from '../observability/observability';
import { coreScrapeSources } from '../observability/scrape-sources';

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
  /** Receives every warning line verbatim (tests, embedders); given, the terminal stays quiet unless `logTerminal` says otherwise. */
  log?: (line: string) => void;
  /** `--log-level` / `LEEWAY_LOG_LEVEL` (default info). */
  logLevel?: LogLevel;
  /** Where the human-readable log lines go: stdout by default, nowhere when `log` is given. */
  logTerminal?: TerminalTarget;
  now?: () => number;
  /** Issue 13 §5: ask upstreams for their model lists on start, hourly and on changes (default on; tests turn it off). */
  modelDiscovery?: boolean;
  /** Tests: wraps the quota counter store (a store that throws or hangs, QPIPE-3/5). */
  wrapQuotaStore?: (store: SwitchingQuotaStore) => SwitchingQuotaStore;
  /** Tests: the opened database, to make SQLite itself fail (PRAGMA query_only, max_page_count; issue 21 §16). */
  onDatabase?: (db: Database) => void;
}

export interface StartedInfo {
  proxyUrl: string;
  dashboardUrl: string;
  adminToken: string;
}

/** How a stop treats the requests in flight (issue 21 §9). */
export interface StopOptions {
  /** How long they may run on before they are ended with a `shutdown` error; 0 (default) ends them at once. */
  graceMs?: number;
}

export interface Core {
  start(): Promise<Result<StartedInfo>>;
  /** Stops accepting, ends the requests in flight (after the grace), flushes the log and closes storage. */
  stop(options?: StopOptions): Promise<void>;
  router: Router;
  events: EventBus;
  info(): ProxyInfo;
}

const DB_FILE = 'leeway.sqlite';

function configRefusal(file: string, problems: ConfigProblem[]): Result<never> {
  const lines = problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
  return fail('invalid_input', `Invalid config file ${file}:\n${lines}`, { details: { problems } });
}

/** The composition root: storage, catalog, proxy, admin door and their timers, started and stopped as one. */
export function createCore(options: CoreOptions): Core {
  const now = options.now ?? Date.now;
  const events = createEventBus();
  let storage: Storage | null = null;
  let resilience: ResilienceRuntime | null = null;
  let claude: ClaudeRuntime | null = null;
  let quotaStore: SwitchingQuotaStore | null = null;
  let teamShare: TeamShare | null = null;
  let quota: QuotaRuntime | null = null;
  let catalog: Catalog = buildCatalog([], []);
  let info: ProxyInfo | null = null;
  let admin: AdminHandler | null = null;
  const servers: Server[] = [];
  const gates: StorageGate[] = [];
  const timers: NodeJS.Timeout[] = [];
  const inFlight = createInFlightRequests();
  const pools = createUpstreamPools();
  // QUEUE-1: the request queue under maxConcurrent, shared by the proxy and queues.list; settings read per request (QUEUE-7).
  const slots = createConnectionSlots({ settings: () => needResilience().settings.get().requestQueue, now });
  // The client-socket limits are read before storage opens (the ports bind first): defaults until then.
  let clientLimits: () => Settings = () => DEFAULT_SETTINGS;
  const { track, settled } = createSettlingTracker();
  // Issue 13 §1–2: one logger (terminal + <dataDir>/logs) and the metrics, fed from the activity entries.
  const obs = createObservability({
    terminal: options.logTerminal !== undefined ? options.logTerminal : options.log ? null : 'stdout',
    ...(options.log ? { tap: options.log } : {}),
    ...(options.logLevel ? { level: options.logLevel } : {}),
    events,
    // The last catalog stays readable after a stop or a lost data dir: its secrets are still redacted.
    catalog: () => catalog,
    scrape: coreScrapeSources({
      catalog: () => catalog,
      resilience: () => resilience,
      quota: () => quota,
      pools: () => storage?.quotaPools ?? null,
      queues: slots,
    }),
    now,
  });
  const log = obs.log;
  const discovery = createModelDiscovery({
    pools,
    catalog: () => catalog,
    changed: () => {
      if (storage) reloadCatalog();
    },
    log: (line) => log(line),
    now,
    automatic: options.modelDiscovery ?? process.env.LEEWAY_MODEL_DISCOVERY !== '0',
  });
  let lock: DataDirLock | null = null;
  let watch: DataDirWatch | null = null;
  /** Set once the data directory is gone: every contract call and model request is refused with it. */
  let storageLost: string | null = null;
  let lostAt = 0;
  /** Issue 21 §16: whether writes reach the disk; kept after a stop or a loss so the doors can still say so. */
  let health: StorageHealth | null = null;
  const storageStatus = () =>
    storageStatusOf(
      health,
      storageLost === null ? null : { message: storageLost, at: lostAt },
      storage?.requestLog.held() ?? null,
    );

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
      s.connections.list().map((c) => ({
        view: c,
        secret: c.secret,
        discovered: discovery.modelsFor(c),
        ...(c.outboundProxy ? { outboundProxy: c.outboundProxy } : {}),
      })),
      s.combos.list(),
      s.routes.list(),
      quota?.catalogPools() ?? [],
    );
  };
  const needQuota = (): QuotaRuntime => {
    if (!quota) throw new Error('core not started');
    return quota;
  };
  /** The admin door's face of the quota engine; a reload also rebuilds the catalog (its `qtSd/` combos). */
  const quotaAdmin: QuotaAdmin = {
    usage: (poolIdOrName, at) => needQuota().usage(poolIdOrName, at),
    storeStatus: () => needQuota().storeStatus(),
    reload: () => {
      needQuota().reload();
      reloadCatalog();
    },
  };
  const currentInfo = (): ProxyInfo => {
    if (!info) throw new Error('core not started');
    return { ...info, paused: need().settings.get().paused, storage: storageStatus() };
  };

  const inner = createRouter(
    createHandlers(
      handlerDeps(need, needResilience, {
        queues: slots,
        quota: quotaAdmin,
        events,
        now,
        info: currentInfo,
        reloadCatalog,
        claudeStatus: () => claude?.status(catalog.connections) ?? [],
        testConnection: (name) => discovery.test(name),
      }),
    ),
    // A write the disk refused is a typed refusal (issue 21 §16); anything else thrown is a bug.
    (method, error) => storageRefusal(error, health) ?? log(`Leeway: internal error in ${method}`),
  );
  // Both doors (IPC and HTTP) share this router, so a lost data directory is refused the same on each.
  const router: Router = {
    async call(method, input) {
      if (storageLost !== null) return fail('storage_unavailable', storageLost);
      const result = await inner.call(method, input);
      // A handler that threw may have failed to write: look whether the data directory is still there.
      const lostNow = !result.ok && result.error.code === 'internal_error' ? (watch?.check() ?? null) : null;
      return lostNow === null ? result : fail('storage_unavailable', storageLost ?? lostNow);
    },
  };

  /** Set once this start created the data directory: a failed start removes it again. */
  let createdDir = false;

  /**
   * Issue 21 §16: a disk that refuses the first writes (full, read-only, not ours) ends the start
   * with one line naming the directory and what to do, never a stack; what was created goes again.
   */
  async function start(): Promise<Result<StartedInfo>> {
    try {
      return await startOnce();
    } catch (error) {
      const fault = storageFaultOf(error);
      if (fault === null) throw error;
      await stop();
      if (createdDir) rmSync(options.dataDir, { recursive: true, force: true });
      return fail('storage_unavailable', describeStartFault(options.dataDir, fault));
    }
  }

  async function startOnce(): Promise<Result<StartedInfo>> {
    const dir = options.dataDir;
    const dbFile = join(dir, DB_FILE);
    // Whatever can refuse without writing goes first: a failed start leaves no data dir or file behind.
    const free = checkDataDirFree(dir);
    if (!free.ok) return free;
    if (options.adminToken && options.adminToken.length < 16) {
      return fail('invalid_input', 'LEEWAY_ADMIN_TOKEN must be at least 16 characters');
    }
    let checkedConfig: LoadedConfig | null = null;
    if (options.configFile && !existsSync(dbFile)) {
      // No database yet, so no stored connection a combo could name: the file can be judged alone.
      const loaded = loadConfig(options.configFile, new Set());
      if (!loaded.ok) return configRefusal(options.configFile, loaded.problems);
      checkedConfig = loaded.value;
    }
    const split = options.adminPort !== undefined;
    const proxyGate = createStorageGate();
    const adminGate = createStorageGate();
    gates.push(proxyGate, adminGate);
    const proxyServer = createProxyServer(proxyGate.listener, { limits: () => clientLimits(), log });
    servers.push(proxyServer);
    const port = await listen(proxyServer, options.host, options.port, '--port');
    if (!port.ok) {
      await stop();
      return port;
    }
    let adminUrl = urlOf(options.host, port.value);
    if (split) {
      const adminServer = createProxyServer(adminGate.listener, { limits: () => clientLimits(), log });
      servers.push(adminServer);
      const adminPort = await listen(adminServer, '127.0.0.1', options.adminPort ?? 0, '--admin-port');
      if (!adminPort.ok) {
        await stop();
        return adminPort;
      }
      adminUrl = urlOf('127.0.0.1', adminPort.value);
    }

    let created: boolean;
    try {
      created = createdDir = createDataDir(dir);
    } catch (error) {
      await stop();
      const fault = storageFaultOf(error);
      if (fault) return fail('storage_unavailable', describeStartFault(dir, fault));
      return fail(
        'internal_error',
        `Cannot create the data directory ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    const locked = acquireDataDirLock(dir, now());
    if (!locked.ok) {
      // Another instance won the race; its directory is not ours to remove.
      await stop();
      return locked;
    }
    lock = locked.value;
    const refuse = async (result: Result<never>): Promise<Result<never>> => {
      await stop();
      if (created) rmSync(dir, { recursive: true, force: true });
      return result;
    };

    const opened = openStorage(dbFile, dir, {
      box: options.secretBox,
      now: now(),
      clock: now,
      engines: ENGINE_STORES,
    });
    if (!opened.ok) return refuse(opened);
    const s = (storage = opened.value);
    health = s.health;
    options.onDatabase?.(s.db);

    if (options.configFile) {
      const loaded = checkedConfig
        ? { ok: true as const, value: checkedConfig }
        : loadConfig(options.configFile, new Set(s.connections.list().map((c) => c.name)), storedNamesOf(s));
      if (!loaded.ok) return refuse(configRefusal(options.configFile, loaded.problems));
      const applied = applyConfig(s, loaded.value, now());
      if (!applied.ok) return refuse(applied);
      obs.info(describeAppliedConfig(applied.value, options.configFile));
      for (const key of loaded.value.keys) obs.secret(key.key);
    }
    // Issue 24 §4: cooldowns and terminal states shared with the other instances on the quota store's Redis.
    const team = (teamShare = createTeamShareFor(s, () => catalog, log));
    const rows = resilienceStoresOf(s.db);
    const r = (resilience = createResilienceRuntime(
      { ...rows, health: team.wrapHealth(rows.health), breakers: team.wrapBreakers(rows.breakers) },
      process.env,
      () => catalog,
      events,
      now,
    ));
    await team.start(r);

    const settingsCache = { value: s.settings.get() };
    // The quota engine (issue 10): setting > env > default, resolved again when the setting changes.
    const quotaConfigOf = (stored: Settings['quotaStore']) => {
      const resolved = resolveQuotaConfig(stored, process.env);
      for (const problem of resolved.problems) log(`[quota:factory] ${problem}`);
      return resolved;
    };
    const quotaConfig = { value: quotaConfigOf(settingsCache.value.quotaStore) };
    const factory = createQuotaStoreFactory({
      openLocal: (report) => createSqliteQuotaStore(s.db, { log: report }),
      config: () => quotaConfig.value,
      log,
      now,
    });
    const store = (quotaStore = options.wrapQuotaStore ? options.wrapQuotaStore(factory) : factory);
    const q = (quota = createQuotaRuntime({
      store,
      storeState: () => store.status(),
      pools: s.quotaPools,
      config: () => quotaConfig.value,
      log,
      now,
    }));
    q.reload();
    reloadCatalog();
    obs.open(dir, r.control.snapshot(now()));
    // Redis (when configured) connects or falls back before the first request is counted.
    await store.ready();
    clientLimits = () => settingsCache.value;
    const claudeDeps = {
      connections: obs.tellTokenRefresh(s.connections),
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
      ownership: team.refreshOwnership,
    };
    claude = assembleClaude(claudeDeps);
    const lanes = claude;
    // PROD-4: "Clear all" (and a connection's clear) also lifts the Claude lane's max-wait cool-offs.
    r.control.attachTransient({ clear: (id) => lanes.clearCoolOffs(id) });
    lookUpMissingOrganizations(claudeDeps);
    events.subscribe((e) => {
      if (e.type === 'settings.changed') {
        const before = JSON.stringify(settingsCache.value.quotaStore);
        settingsCache.value = e.payload.settings;
        if (JSON.stringify(e.payload.settings.quotaStore) !== before) {
          quotaConfig.value = quotaConfigOf(e.payload.settings.quotaStore);
          void store.reconfigure();
        }
      }
      // A revoked key or a removed connection leaves its pools: the request path must see it at once.
      const keysOrConnections =
        (e.type === 'keys.changed' && e.payload.lastUsedOnly !== true) || e.type === 'connections.changed';
      if (keysOrConnections && storage) {
        q.reload();
        reloadCatalog();
      }
    });
    discovery.start(createDiscoveredModelsRepo(s.db), events);
    const ctx: ProxyContext = {
      catalog: () => catalog,
      settings: () => settingsCache.value,
      verifyKey: obs.rememberKeys(createKeyVerifier(s.keys, events, now)),
      pools,
      resilience: r.port,
      slots,
      hooks: createClaudeHooks(claude),
      affinity: s.affinity,
      leases: s.leases,
      roundRobin: createRoundRobinStore({ stickyRoundRobinLimit: () => settingsCache.value.stickyRoundRobinLimit }),
      quota: q,
      quotaShare: createQuotaShareDispatch(q),
      quotaShareWaitsForSlot: () => r.settings.get().quotaShareConcurrencyLimit.enabled,
      cooldownWait: { settings: () => r.settings.get().comboCooldownWait, snapshot: (at) => r.control.snapshot(at) },
      throughputWatchdog: () => r.settings.get().streamRecovery.throughputWatchdog,
      log,
      now,
      // After the data dir is lost nothing more is logged; the gate refuses new requests already.
      record: obs.record((entry) => {
        if (storageLost === null) events.emit('activity.request', { entry: s.requestLog.append(entry) });
      }),
      allowedHosts: new Set(
        options.allowRemote && options.host !== '0.0.0.0' && options.host !== '::' ? [options.host] : [],
      ),
      version: LEEWAY_VERSION,
      dashboardUrl: `${adminUrl}/`,
      inFlight,
      storage: () => ({ status: storageStatus(), lost: storageLost !== null }),
    };
    const adminToken = resolveAdminToken(dir, options.adminToken);
    obs.secret(adminToken);
    admin = createAdminHandler({
      router,
      events,
      token: adminToken,
      rendererDir: options.rendererDir ?? null,
      log,
      metrics: obs.metrics,
      storage: storageStatus,
    });
    proxyGate.open(track(createProxyHandler(ctx, split ? null : admin)));
    // The admin door keeps the proxy's guards (Host, Origin) but answers no /v1 route.
    if (split) adminGate.open(track(createProxyHandler({ ...ctx, verifyKey: () => null }, admin)));

    lock.setPort(port.value);
    // After SQLite, the key file and the token exist: tighten them all, and whatever an older version left.
    secureDataDir(dir);
    const onLost = (reason: string): void => {
      storageLost = `Storage unavailable: ${reason}; Leeway stopped writing (request log, settings, cooldowns) — restart it once the data directory is back`;
      lostAt = now();
      log(`Leeway: DATA DIRECTORY LOST: ${reason}. Nothing is saved any more; restart Leeway.`);
      for (const gate of gates) gate.lose(storageLost);
      discovery.stop();
      void obs.closeFile();
      for (const t of timers.splice(0)) clearInterval(t);
      storage?.abandon();
      storage = null;
      events.emit('storage.lost', { dataDir: dir, message: storageLost });
    };
    watch = watchDataDir([dir, dbFile], onLost);
    // A failed write is the moment to look: the folder may be gone altogether.
    announceStorageHealth(s.health, { events, log, now, dataDir: dir, degraded: () => void watch?.check() });

    timers.push(...startStorageTimers(s, () => settingsCache.value, now, log));
    timers.push(startQuotaGc(store, () => quotaConfig.value.retentionDays, now, log));

    const proxyUrl = urlOf(options.host, port.value);
    const dashboardUrl = `${adminUrl}/?token=${encodeURIComponent(adminToken)}`;
    info = {
      proxyUrl,
      dashboardUrl: adminUrl + '/',
      dataDir: dir,
      version: LEEWAY_VERSION,
      paused: false,
      startedAt: now(),
      mode: options.mode,
      storage: storageStatus(),
    };
    return ok({ proxyUrl, dashboardUrl, adminToken });
  }

  async function stop(opts: StopOptions = {}): Promise<void> {
    discovery.stop();
    admin?.closeAll();
    // The storage timers keep flushing while requests drain: a second Ctrl-C loses at most a second of rows.
    await drainRequests({ servers, gates, inFlight, settled, graceMs: opts.graceMs ?? 0, log });
    for (const t of timers.splice(0)) clearInterval(t);
    watch?.stop();
    watch = null;
    await closeServers(servers.splice(0));
    gates.length = 0;
    await settled();
    await pools.close();
    // Consumption is recorded on the turn after each answer: let the last ones run, then flush the
    // store's write-behind before SQLite closes under it.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await quotaStore?.close();
    quotaStore = null;
    await teamShare?.close();
    teamShare = null;
    quota = null;
    if (storage) {
      storage.close();
      // A disk that still refuses at exit keeps the last rows unwritten: say so rather than lose them silently.
      const unwritten = storage.requestLog.held().rows;
      if (unwritten > 0)
        log(
          `Leeway: ${unwritten} activity rows could not be written before exit (${health?.status().error ?? 'storage failing'})`,
        );
    }
    storage = null;
    resilience = null;
    claude = null;
    lock?.release();
    lock = null;
    // Last: the final request lines (written while requests settled) reach the terminal and the file.
    await obs.flush();
  }

  return { start, stop, router, events, info: currentInfo };
}
