import type { ProxyInfo } from '../../src-shared/contract/methods';
import type { HandlerDeps } from '../api/handlers/handler-deps';
import type { EventBus } from '../kernel/event-bus';
import type { Services } from './start-services';

/** The handlers' dependencies over the running services: repositories, services, engines' faces. */
/** What the start adds beside the services: the bus, the clock, the running info, the environment, the held board. */
export interface HandlerRest {
  events: EventBus;
  now(): number;
  info(): ProxyInfo;
  env: HandlerDeps['env'];
  held: HandlerDeps['held'];
}

export function handlerDeps(services: Services, rest: HandlerRest): HandlerDeps {
  const { storage, quota, resilience, discovery, claude, catalog } = services;
  return {
    events: rest.events,
    now: rest.now,
    info: rest.info,
    env: rest.env,
    held: rest.held,
    connections: storage.connections,
    keys: storage.keys,
    combos: storage.combos,
    routes: storage.routes,
    quotaPools: storage.quotaPools,
    requestLog: storage.requestLog,
    series: storage.series,
    discoveredModels: storage.discoveredModels,
    affinity: storage.affinity,
    leases: storage.leases,
    atomically: storage.atomically,
    settings: services.settings,
    quota: { usage: quota.runtime.usage, storeStatus: quota.runtime.storeStatus },
    resilience: resilience.control,
    resilienceSettings: resilience.settings,
    queues: services.slots,
    testConnection: (name) => discovery.test(name),
    claudeStatus: () => claude.status(catalog.get().connections),
  };
}
