import type { HeldRequestView } from '../../src-shared/domain/held';
import { join } from 'node:path';
import { ok, type Result } from '../../src-shared/contract/errors';
import type { ProxyInfo } from '../../src-shared/contract/methods';
import type { Router } from '../api/router';
import type { EventBus } from '../kernel/event-bus';
import { LEEWAY_VERSION } from '../kernel/version';
import type { Observability } from '../observability/observability';
import { bindDoors, type BoundDoors } from './bind-doors';
import { checkStart } from './config-file';
import type { CoreOptions, StartedInfo } from './core-options';
import type { Disposers } from './disposers';
import { openDataDir, DB_FILE, type DataDir } from './open-data-dir';
import { openDoors } from './open-doors';
import { createRunRouter } from './run-router';
import { startServices, type Services } from './start-services';

/** What lives as long as the core, whatever its starts and stops. */
export interface CoreShared {
  events: EventBus;
  obs: Observability;
  now(): number;
}

/** A start that succeeded: what it answers, and the router over its services. */
export interface StartedRun {
  started: StartedInfo;
  router: Router;
}

/**
 * The phases of one start (issue 22): checks, the ports bound, the data directory locked, the
 * services, the doors. Each phase returns a value or the refusal that ends the start; every
 * resource's close is on `disposers` by then, for the caller to run.
 */
export async function startRun(
  options: CoreOptions,
  shared: CoreShared,
  disposers: Disposers,
): Promise<Result<StartedRun>> {
  const { env } = options;
  const checked = checkStart({
    dataDir: options.dataDir,
    dbFile: join(options.dataDir, DB_FILE),
    env: env.vars,
    ...(options.adminToken !== undefined ? { adminToken: options.adminToken } : {}),
    ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
  });
  if (!checked.ok) return checked;
  const bind = {
    host: options.host,
    port: options.port,
    adminPort: options.adminPort,
    log: shared.obs.log,
    onHeldChange: (held: HeldRequestView[]) => shared.events.emit('held.changed', { held }),
  };
  const bound = await bindDoors(bind, disposers);
  if (!bound.ok) return bound;
  const dataDir = openDataDir(options.dataDir, shared.now(), disposers);
  if (!dataDir.ok) return dataDir;
  const services = await startServices(
    dataDir.value,
    {
      ...shared,
      env,
      secretBox: options.secretBox,
      config: options.configFile ? { file: options.configFile, checked: checked.value } : null,
      modelDiscovery: options.modelDiscovery ?? env.modelDiscovery,
      wrapQuotaStore: options.wrapQuotaStore,
      onDatabase: options.onDatabase,
    },
    disposers,
  );
  if (!services.ok) return services;
  return ok(
    openRun(options, shared, { bound: bound.value, dataDir: dataDir.value, services: services.value }, disposers),
  );
}

/** The last phase: the router and the doors over the services, then the background work. */
function openRun(
  options: CoreOptions,
  shared: CoreShared,
  phases: { bound: BoundDoors; dataDir: DataDir; services: Services },
  disposers: Disposers,
): StartedRun {
  const { bound, dataDir, services } = phases;
  const { events, obs, now } = shared;
  const startedAt = now();
  const info = (): ProxyInfo => ({
    proxyUrl: bound.proxyUrl,
    dashboardUrl: `${bound.adminUrl}/`,
    dataDir: dataDir.dir,
    version: LEEWAY_VERSION,
    paused: services.settings.get().paused,
    startedAt,
    mode: options.mode,
    storage: services.storageStatus(),
  });
  const router = createRunRouter(services, {
    events,
    now,
    info,
    env: options.env.vars,
    log: obs.log,
    held: bound.inFlight.held,
  });
  const remote = options.allowRemote && options.host !== '0.0.0.0' && options.host !== '::';
  const doors = openDoors(
    bound,
    services,
    {
      ...shared,
      router,
      dataDir: dataDir.dir,
      adminToken: options.adminToken,
      rendererDir: options.rendererDir ?? null,
      allowedHost: remote ? options.host : null,
      emergencyFallbackEnv: options.env.emergencyFallback,
    },
    disposers,
  );
  dataDir.lock.setPort(bound.proxyPort);
  dataDir.secure();
  services.loss.subscribe((loss) => events.emit('storage.lost', { dataDir: dataDir.dir, message: loss.message }));
  // Background work last, so a stop ends it first.
  services.discovery.start(services.storage.discoveredModels, events);
  disposers.push(() => services.discovery.stop());
  return { started: { proxyUrl: bound.proxyUrl, ...doors, info }, router };
}
