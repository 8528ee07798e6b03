import type { Settings } from '../../src-shared/domain/settings';
import type { Storage } from '../db/storage';
import type { EnvVars } from '../kernel/env-vars';
import { resolveQuotaConfig } from '../quota/engine/quota-config';
import { createQuotaRuntime, type QuotaRuntime } from '../quota/runtime/quota-runtime';
import { createQuotaStoreFactory, type SwitchingQuotaStore } from '../quota/store/store-factory';
import type { SettingsService } from '../services/settings-service';
import type { Disposers } from './disposers';
import { createSqliteQuotaStore } from './sqlite-quota-store';

export interface QuotaEngine {
  runtime: QuotaRuntime;
  store: SwitchingQuotaStore;
  /** QENV-3: the counters' retention in force. */
  retentionDays(): number;
}

/**
 * The quota engine (issue 10): the counter store (SQLite, or Redis when configured) and the runtime
 * over the pools. Its configuration is setting > env > default, resolved again when the setting
 * changes (it subscribes); the store's close (after the last consumption was recorded) is pushed.
 */
export function startQuotaEngine(
  deps: {
    storage: Storage;
    settings: SettingsService;
    env: EnvVars;
    log(line: string): void;
    now(): number;
    wrapStore?: (store: SwitchingQuotaStore) => SwitchingQuotaStore;
  },
  disposers: Disposers,
): QuotaEngine {
  const { storage, log } = deps;
  const configOf = (stored: Settings['quotaStore']) => {
    const resolved = resolveQuotaConfig(stored, deps.env);
    for (const problem of resolved.problems) log(`[quota:factory] ${problem}`);
    return resolved;
  };
  let config = configOf(deps.settings.get().quotaStore);
  const factory = createQuotaStoreFactory({
    openLocal: (report) => createSqliteQuotaStore(storage.db, { log: report }),
    config: () => config,
    log,
    now: deps.now,
  });
  const store = deps.wrapStore ? deps.wrapStore(factory) : factory;
  disposers.push(async () => {
    // Consumption is recorded on the turn after each answer: let the last ones run, then flush the
    // store's write-behind before SQLite closes under it.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await store.close();
  });
  deps.settings.subscribe((next, previous) => {
    if (JSON.stringify(next.quotaStore) === JSON.stringify(previous.quotaStore)) return;
    config = configOf(next.quotaStore);
    void store.reconfigure();
  });
  const runtime = createQuotaRuntime({
    store,
    storeState: () => store.status(),
    pools: storage.quotaPools,
    config: () => config,
    log,
    now: deps.now,
  });
  return { runtime, store, retentionDays: () => config.retentionDays };
}
