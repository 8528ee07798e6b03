import { ENGINE_STORES } from '../../core/engine-stores';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreEvent } from '../../../src-shared/contract/events';
import type { ConnectionDraft } from '../../../src-shared/domain/connection';
import { openStorage, type Storage } from '../../db/storage';
import { createEventBus } from '../../kernel/event-bus';
import { createCatalogService } from '../../services/catalog-service';
import { createSettingsService } from '../../services/settings-service';
import { createRouter, type Handlers, type Router } from '../router';
import { createHandlers } from './create-handlers';
import { createFakeQuotaAdmin } from './fake-quota-admin.testkit';

export const T0 = 1_700_000_000_000;

/** The contract's handlers over a real SQLite file, with the engines they do not touch left out. */
export interface HandlersHarness {
  storage: Storage;
  router: Router;
  /** The same handlers, for a door test (the admin HTTP harness) over real storage. */
  handlers: Handlers;
  events: CoreEvent[];
  /** How often the catalog service rebuilt the catalog from storage's change events (since `settle`). */
  reloads: () => number;
  /** How often it reloaded the quota engine's index (since `settle`). */
  quotaReloads: () => number;
  /** Applies the changes written so far (a test's own setup) and counts from zero. */
  settle(): void;
  setNow(at: number): void;
  close(): void;
}

const unused = (what: string) => (): never => {
  throw new Error(`${what} is not part of this test`);
};

export function connectionDraft(name: string, models: string[] = []): ConnectionDraft {
  return {
    name,
    kind: 'anthropic',
    baseUrl: null,
    models,
    modelAliases: {},
    priority: 1,
    enabled: true,
    maxConcurrent: null,
    disableCooling: false,
    providerSpecificData: {},
  };
}

export function startHandlersHarness(): HandlersHarness {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-handlers-'));
  const opened = openStorage(join(dir, 'leeway.sqlite'), dir, { now: T0, engines: ENGINE_STORES });
  if (!opened.ok) throw new Error(opened.error.message);
  const storage = opened.value;
  const bus = createEventBus();
  const events: CoreEvent[] = [];
  bus.subscribe((e) => events.push(e));
  let now = T0;
  const counts = { reloads: 0, quotaReloads: 0 };
  // The real catalog service over this storage, with a quota index that only counts its reloads.
  const catalog = createCatalogService({
    changes: storage.changes,
    sources: {
      connections: () => {
        counts.reloads += 1;
        return storage.connections.list();
      },
      combos: storage.combos.list,
      routes: storage.routes.list,
      discovered: () => [],
    },
    quota: { reload: () => void (counts.quotaReloads += 1), catalogPools: () => [] },
    log: (line) => {
      throw new Error(line);
    },
  });
  const settle = (): void => {
    catalog.get();
    counts.reloads = 0;
    counts.quotaReloads = 0;
  };
  settle();
  const handlers = createHandlers({
    ...storage,
    settings: createSettingsService(storage.settings),
    quota: createFakeQuotaAdmin(() => storage.quotaPools.list()),
    events: bus,
    now: () => now,
    env: {},
    info: unused('info'),
    resilience: {
      snapshot: unused('resilience'),
      clear: unused('resilience'),
      resetConnection: () => {},
      resetAll: unused('resilience'),
      markTerminal: unused('resilience'),
      attachTransient: unused('resilience'),
    },
    resilienceSettings: { get: unused('resilience settings'), update: unused('resilience settings') },
    testConnection: unused('testConnection'),
    claudeStatus: unused('claudeStatus'),
  });
  const router = createRouter(handlers);
  return {
    storage,
    router,
    handlers,
    events,
    reloads: () => counts.reloads,
    quotaReloads: () => counts.quotaReloads,
    settle,
    setNow: (at) => void (now = at),
    close() {
      catalog.close();
      storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Two connections (one listing a model), a key and a combo: enough for routes, pins and leases. */
export function setUpHandlers() {
  const h = startHandlersHarness();
  const max1 = h.storage.connections.upsert(connectionDraft('max-1'), T0);
  const max2 = h.storage.connections.upsert(connectionDraft('max-2', ['claude-opus-4-8']), T0);
  const key = h.storage.keys.create({ name: 'laptop' }, T0);
  if (!key.ok) throw new Error(key.error.message);
  h.storage.combos.upsert({ name: 'main', targets: [{ connection: 'max-1', model: null }] }, T0);
  h.settle();
  return { h, max1, max2, keyId: key.value.key.id };
}
