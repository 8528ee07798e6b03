import { createAdminHandler } from '../admin/admin-handler';
import type { Router } from '../api/router';
import type { EventBus } from '../kernel/event-bus';
import type { Observability } from '../observability/observability';
import { resolveAdminToken } from './admin-token';
import type { BoundDoors } from './bind-doors';
import { buildProxyContext } from './build-proxy-context';
import type { Disposers } from './disposers';
import type { Services } from './start-services';

export interface DoorsInput {
  router: Router;
  events: EventBus;
  obs: Observability;
  now(): number;
  dataDir: string;
  /** `--admin-token` / LEEWAY_ADMIN_TOKEN; else the one kept in the data directory. */
  adminToken: string | undefined;
  rendererDir: string | null;
  allowedHost: string | null;
  emergencyFallbackEnv: boolean;
}

/** The open doors: the admin token they accept and the dashboard link that carries it. */
export interface Doors {
  adminToken: string;
  dashboardUrl: string;
}

/**
 * The doors phase (issue 22): the request path's context over the services, the admin door (web
 * dashboard, admin API, event stream), and the bound ports' gates opened onto them. Their close —
 * event streams ended, then the drain of issue 21 §9 — is pushed on `disposers`.
 */
export function openDoors(bound: BoundDoors, services: Services, input: DoorsInput, disposers: Disposers): Doors {
  const { obs } = input;
  const ctx = buildProxyContext(services, {
    events: input.events,
    obs,
    now: input.now,
    inFlight: bound.inFlight,
    allowedHost: input.allowedHost,
    dashboardUrl: `${bound.adminUrl}/`,
    emergencyFallbackEnv: input.emergencyFallbackEnv,
  });
  const adminToken = resolveAdminToken(input.dataDir, input.adminToken);
  obs.secret(adminToken);
  const admin = createAdminHandler({
    router: input.router,
    events: input.events,
    token: adminToken,
    rendererDir: input.rendererDir,
    log: obs.log,
    metrics: obs.metrics,
    storage: services.storageStatus,
  });
  bound.open(ctx, admin, services.settings.get);
  services.loss.subscribe((loss) => bound.lose(loss.message));
  disposers.push(async ({ graceMs }) => {
    admin.closeAll();
    // The storage timers keep flushing while requests drain: a second Ctrl-C loses at most a second of rows.
    await bound.close(graceMs, obs.log);
  });
  return { adminToken, dashboardUrl: `${bound.adminUrl}/?token=${encodeURIComponent(adminToken)}` };
}
