import type { RefreshOwnership } from '../providers/claude-oauth/oauth-tokens';
import { toView } from '../db/connections-repo';
import type { EventBus } from '../kernel/event-bus';
import type { Observability } from '../observability/observability';
import { assembleClaude, lookUpMissingOrganizations } from '../providers/claude-oauth/claude-assembly';
import type { ClaudeRuntime } from '../providers/claude-oauth/claude-runtime';
import type { EnvProxySettings } from '../providers/upstream-pools';
import type { ResilienceRuntime } from '../resilience/resilience-runtime';
import type { CatalogService } from '../services/catalog-service';
import type { SettingsService } from '../services/settings-service';
import type { OpenStore } from './open-store';

/**
 * The Claude subscription runtime (token refresh, lane, limit reset) over the stored connections:
 * a refreshed token or a learned organisation is written through the repository — whose change
 * event rebuilds the catalog — and told to the windows. Connections with auto limit reset but no
 * organisation look it up now, in the background (RESET-5).
 */
export function startClaude(deps: {
  store: OpenStore;
  resilience: ResilienceRuntime;
  settings: SettingsService;
  catalog: CatalogService;
  events: EventBus;
  obs: Observability;
  proxy: EnvProxySettings | null;
  now(): number;
  /** Issue 24 §4: one refresh-token owner per Claude connection across the team's instances. */
  ownership?: RefreshOwnership;
}): ClaudeRuntime {
  const { store, events } = deps;
  const { storage } = store;
  const assembly = {
    connections: deps.obs.tellTokenRefresh(storage.connections),
    control: deps.resilience.control,
    settings: deps.settings.get,
    catalog: deps.catalog.get,
    connectionsChanged: () => {
      // A background refresh or lookup may end after a stop or a lost data directory.
      if (store.isOpen()) events.emit('connections.changed', { connections: storage.connections.list().map(toView) });
    },
    events,
    proxy: deps.proxy,
    now: deps.now,
    ownership: deps.ownership,
  };
  const claude = assembleClaude(assembly);
  // PROD-4: "Clear all" (and a connection's clear) also lifts the Claude lane's max-wait cool-offs.
  deps.resilience.control.attachTransient({ clear: (id) => claude.clearCoolOffs(id) });
  lookUpMissingOrganizations(assembly);
  return claude;
}
