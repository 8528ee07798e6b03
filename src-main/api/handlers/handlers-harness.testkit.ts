import { ENGINE_STORES } from '../../core/engine-stores';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreEvent } from '../../../src-shared/contract/events';
import type { ConnectionDraft } from '../../../src-shared/domain/connection';
import { openStorage, type Storage } from '../../db/storage';
import { createEventBus } from '../../kernel/event-bus';
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
  reloads: () => number;
  /** How often a handler asked the quota engine to reload. */
  quotaReloads: () => number;
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
  let reloads = 0;
  const quota = createFakeQuotaAdmin(() => storage.quotaPools.list());
  const handlers = createHandlers({
    ...storage,
    quota,
    events: bus,
    now: () => now,
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
    reloadCatalog: () => void reloads++,
  });
  const router = createRouter(handlers);
  return {
    storage,
    router,
    handlers,
    events,
    reloads: () => reloads,
    quotaReloads: () => quota.reloads(),
    setNow: (at) => void (now = at),
    close() {
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
  return { h, max1, max2, keyId: key.value.key.id };
}
