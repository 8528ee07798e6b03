import { ok, type Result } from '../../src-shared/contract/errors';
import type { StorageStatus } from '../../src-shared/domain/storage-status';
import { resilienceStoresOf } from '../db/resilience-rows';
import type { Storage } from '../db/storage';
import type { EventBus } from '../kernel/event-bus';
import type { Observability } from '../observability/observability';
import { coreScrapeSources } from '../observability/scrape-sources';
import type { ClaudeRuntime } from '../providers/claude-oauth/claude-runtime';
import { createUpstreamPools, type UpstreamPools } from '../providers/upstream-pools';
import type { SwitchingQuotaStore } from '../quota/store/store-factory';
import { createConnectionSlots, type ConnectionSlots } from '../resilience/queue/connection-slots';
import { createResilienceRuntime, type ResilienceRuntime } from '../resilience/resilience-runtime';
import { createTeamShareFor } from './team-wiring';
import { createCatalogService, type CatalogService } from '../services/catalog-service';
import { createSettingsService, type SettingsService } from '../services/settings-service';
import { startClaude } from './claude-wiring';
import { createModelDiscovery, type ModelDiscovery } from './discovery';
import type { Disposers } from './disposers';
import type { Env } from './env';
import type { DataDir } from './open-data-dir';
import { openStore, type OpenStore, type StoreInput } from './open-store';
import { startQuotaEngine, type QuotaEngine } from './quota-engine';
import { storageStatusOf } from './storage';
import type { StorageLoss } from './storage-loss';
import { startStorageUpkeep } from './storage-upkeep';

/** What the services phase needs beyond the data directory. */
export interface ServicesInput extends Pick<StoreInput, 'secretBox' | 'config' | 'onDatabase'> {
  env: Env;
  events: EventBus;
  obs: Observability;
  now(): number;
  /** Issue 13 §5: ask upstreams for their model lists on start, hourly and on changes. */
  modelDiscovery: boolean;
  wrapQuotaStore?: ((store: SwitchingQuotaStore) => SwitchingQuotaStore) | undefined;
}

/** The running engines over one opened storage: everything the doors and the handlers use. */
export interface Services {
  storage: Storage;
  settings: SettingsService;
  catalog: CatalogService;
  resilience: ResilienceRuntime;
  quota: QuotaEngine;
  pools: UpstreamPools;
  /** QUEUE-1: the request queue under maxConcurrent, shared by the proxy and queues.list. */
  slots: ConnectionSlots;
  claude: ClaudeRuntime;
  /** Started by the core once the doors are open (its refreshes are background work). */
  discovery: ModelDiscovery;
  loss: StorageLoss;
  /** Issue 21 §16: whether writes reach the disk (or the folder is gone), as the doors show it. */
  storageStatus(): StorageStatus;
}

/**
 * The services phase (issue 22): storage opened and `--config` applied, then the engines over it —
 * settings, the quota engine, the upstream pools, the catalog rebuilt from storage's change events,
 * resilience, the request queues, the storage timers, the data directory's watch, the Claude
 * runtime. Each pushes its own close on `disposers` as it is created.
 */
export async function startServices(
  dataDir: DataDir,
  input: ServicesInput,
  disposers: Disposers,
): Promise<Result<Services>> {
  const { env, events, obs, now } = input;
  const log = obs.log;
  const opened = openStore(dataDir, { ...input, env: env.vars, log, info: obs.info, secret: obs.secret }, disposers);
  if (!opened.ok) return opened;
  const store = opened.value;
  const { storage } = store;

  const settings = createSettingsService(storage.settings);
  const quota = startQuotaEngine(
    { storage, settings, env: env.vars, log, now, wrapStore: input.wrapQuotaStore },
    disposers,
  );
  const pools = createUpstreamPools({ proxy: env.proxy });
  disposers.push(() => pools.close());
  const discovery = createModelDiscovery({
    pools,
    catalog: () => catalog.get(),
    changed: () => storage.changes.emit('discoveredModels'),
    log,
    now,
    automatic: input.modelDiscovery,
  });
  const catalog = createCatalogService({
    changes: storage.changes,
    sources: {
      connections: storage.connections.list,
      combos: storage.combos.list,
      routes: storage.routes.list,
      discovered: discovery.modelsFor,
    },
    quota: quota.runtime,
    log,
  });
  disposers.push(() => catalog.close());
  // Issue 24 §4: cooldowns, terminal states, open breakers, model lockouts, session pins and leases shared with the team on the quota store's Redis.
  const team = createTeamShareFor(storage, catalog.get, env.vars, log);
  disposers.push(() => team.close());
  const rows = resilienceStoresOf(storage.db);
  const resilience = createResilienceRuntime(
    { ...rows, health: team.wrapHealth(rows.health), breakers: team.wrapBreakers(rows.breakers) },
    env.vars,
    catalog.get,
    events,
    now,
  );
  await team.start(resilience, { pins: storage.affinity, leases: storage.leases });
  // QUEUE-7: the queue's settings are read per request.
  const slots = createConnectionSlots({ settings: () => resilience.settings.get().requestQueue, now });
  attachObservability(obs, { store, catalog, resilience, quota, slots });
  obs.open(dataDir.dir, resilience.control.snapshot(now()));
  // Redis (when configured) connects or falls back before the first request is counted.
  await quota.store.ready();

  const loss = startStorageUpkeep(dataDir, { store, settings, quota, catalog, discovery, events, obs, now }, disposers);

  const claude = startClaude({
    store,
    resilience,
    settings,
    catalog,
    events,
    obs,
    proxy: env.proxy,
    now,
    ownership: team.refreshOwnership,
  });
  // Issue 24 §4: Claude usage windows go to and come from the team too.
  team.attachClaude(claude);

  const storageStatus = (): StorageStatus =>
    storageStatusOf(storage.health, loss.lost(), store.isOpen() ? storage.requestLog.held() : null);
  return ok({ storage, settings, catalog, resilience, quota, pools, slots, claude, discovery, loss, storageStatus });
}

/** The logs redact the catalog's secrets and the metrics scrape the running engines from now on. */
function attachObservability(
  obs: Observability,
  parts: Pick<Services, 'catalog' | 'resilience' | 'quota' | 'slots'> & { store: OpenStore },
): void {
  const { store, catalog } = parts;
  obs.attach({
    catalog: catalog.get,
    scrape: coreScrapeSources({
      catalog: catalog.get,
      resilience: () => parts.resilience,
      quota: () => parts.quota.runtime,
      // Once the data directory is gone, no pool is read from the abandoned database.
      pools: () => (store.isOpen() ? store.storage.quotaPools : null),
      queues: parts.slots,
    }),
  });
}
