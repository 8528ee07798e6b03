import type { EventBus } from '../kernel/event-bus';
import type { Observability } from '../observability/observability';
import type { CatalogService } from '../services/catalog-service';
import type { SettingsService } from '../services/settings-service';
import type { ModelDiscovery } from './discovery';
import type { Disposers } from './disposers';
import { startQuotaGc, startStorageTimers } from './lifecycle';
import type { DataDir } from './open-data-dir';
import type { OpenStore } from './open-store';
import type { QuotaEngine } from './quota-engine';
import { announceStorageHealth } from './storage';
import { watchStorage, type StorageLoss } from './storage-loss';

export interface UpkeepParts {
  store: OpenStore;
  settings: SettingsService;
  quota: QuotaEngine;
  catalog: CatalogService;
  discovery: ModelDiscovery;
  events: EventBus;
  obs: Observability;
  now(): number;
}

/**
 * Storage's upkeep while running: the retention and quota-GC timers, and the data directory's
 * watch. A loss stops everything that would still write into the abandoned folder (issue 8); a
 * failed write is the moment to look, since the folder may be gone altogether.
 */
export function startStorageUpkeep(dataDir: DataDir, parts: UpkeepParts, disposers: Disposers): StorageLoss {
  const { store, obs, now } = parts;
  const { storage } = store;
  const log = obs.log;
  const timers = [
    ...startStorageTimers(storage, parts.settings.get, now, log),
    startQuotaGc(parts.quota.store, parts.quota.retentionDays, now, log),
  ];
  const stopTimers = (): void => {
    for (const timer of timers.splice(0)) clearInterval(timer);
  };
  disposers.push(stopTimers);
  const loss = watchStorage(dataDir, { log, now });
  disposers.push(() => loss.stop());
  loss.subscribe(() => {
    parts.discovery.stop();
    void obs.closeFile();
    stopTimers();
    parts.catalog.close();
    store.abandon();
  });
  announceStorageHealth(storage.health, {
    events: parts.events,
    log,
    now,
    dataDir: dataDir.dir,
    degraded: () => void loss.check(),
  });
  return loss;
}
