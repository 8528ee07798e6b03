import type { ComboView } from '../../src-shared/domain/combo';
import type { ConnectionView } from '../../src-shared/domain/connection';
import type { ApiClient } from '../api/api-client';
import { createAppStore, type AppStore } from './app-store';
import { createClaudeStore, type ClaudeStore } from './claude-store';
import { createCombosStore } from './combos-store';
import { createConnectionsStore } from './connections-store';
import { createCooldownsStore, type CooldownsStore } from './cooldowns-store';
import { createKeysStore, type KeysStore } from './keys-store';
import type { ListStore } from './list-store';
import { createQuotaStore, type QuotaStore } from './quota-store';
import { createSettingsStore, type SettingsStore } from './settings-store';

/** One store per domain, shared by every view of the dashboard. */
export interface Stores {
  app: AppStore;
  connections: ListStore<ConnectionView>;
  keys: KeysStore;
  combos: ListStore<ComboView>;
  cooldowns: CooldownsStore;
  settings: SettingsStore;
  claude: ClaudeStore;
  /** Loaded and polled by the Quota tab while it is shown (QUI-9), not at start-up. */
  quota: QuotaStore;
}

export function createStores(api: ApiClient): Stores {
  return {
    app: createAppStore(api),
    connections: createConnectionsStore(api),
    keys: createKeysStore(api),
    combos: createCombosStore(api),
    cooldowns: createCooldownsStore(api),
    settings: createSettingsStore(api),
    claude: createClaudeStore(api),
    quota: createQuotaStore(api),
  };
}

/** Feeds the stores: events first (so none slip between snapshot and subscription), then snapshots, again after a gap. */
export function connectStores(api: ApiClient, stores: Stores): () => void {
  const offEvents = api.on((event) => {
    switch (event.type) {
      case 'connections.changed':
        return stores.connections.getState().apply(event.payload.connections);
      case 'keys.changed':
        return stores.keys.getState().apply(event.payload.keys);
      case 'combos.changed':
        return stores.combos.getState().apply(event.payload.combos);
      case 'app.paused':
        return stores.app.getState().applyPaused(event.payload.paused);
      case 'settings.changed':
        return stores.settings.getState().applyProxy(event.payload.settings);
      case 'cooldowns.changed':
        return stores.cooldowns.getState().apply(event.payload.snapshot);
      case 'claude.changed':
        return stores.claude.getState().apply(event.payload.status);
      case 'resilience.settingsChanged':
        return stores.settings.getState().applyResilience(event.payload.settings);
      case 'storage.changed':
        return stores.app.getState().applyStorage(event.payload.storage);
      case 'activity.request':
      case 'routes.changed':
      case 'sessions.changed':
      case 'storage.lost':
        // No store: the views that show these subscribe themselves (use-activity-view, use-routes,
        // use-sessions, storage-banner).
        return;
    }
  });
  const loadAll = (): void => {
    const all = [
      stores.app,
      stores.connections,
      stores.keys,
      stores.combos,
      stores.cooldowns,
      stores.settings,
      stores.claude,
    ];
    for (const store of all) void store.getState().load();
  };
  const offReconnect = api.onReconnect(loadAll);
  loadAll();
  return () => {
    offEvents();
    offReconnect();
  };
}
