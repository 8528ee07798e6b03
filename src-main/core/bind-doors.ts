import type { HeldRequestView } from '../../src-shared/domain/held';
import type { Server } from 'node:http';
import type { Result } from '../../src-shared/contract/errors';
import { DEFAULT_SETTINGS, type Settings } from '../../src-shared/domain/settings';
import type { AdminHandler } from '../admin/admin-handler';
import { createStorageGate, type StorageGate } from '../data-dir/storage-gate';
import { createInFlightRequests, type InFlightRequests } from '../proxy/stages/in-flight';
import type { ProxyContext } from '../proxy/proxy-context';
import { createProxyHandler, createProxyServer } from '../proxy/accept/server';
import type { Disposers } from './disposers';
import { closeServers, createSettlingTracker } from './lifecycle';
import { listen, urlOf } from './listen';
import { drainRequests } from './shutdown';

/** The ports, bound first (a port in use must leave no data dir behind), behind gates that refuse until `open`. */
export interface BoundDoors {
  proxyPort: number;
  proxyUrl: string;
  /** The dashboard and admin API: the proxy's origin, or `--admin-port`'s. */
  adminUrl: string;
  /** Model requests running now, for the drain and `/health`. */
  inFlight: InFlightRequests;
  /** Hands the requests to the proxy (and, on a shared port, the admin door); client-socket limits follow `settings`. */
  open(ctx: ProxyContext, admin: AdminHandler, settings: () => Settings): void;
  /** Issue 21 §16: the data directory is gone: model calls are refused with `message`. */
  lose(message: string): void;
  /** Issue 21 §9: stops accepting, drains for `graceMs`, ends the rest, closes every socket; once. */
  close(graceMs: number, log: (line: string) => void): Promise<void>;
}

export interface BindOptions {
  host: string;
  port: number;
  adminPort?: number;
  log(line: string): void;
  /** Issue 24 §2: the requests waiting now changed (the windows list them live). */
  onHeldChange?(held: HeldRequestView[]): void;
}

/** Binds the proxy port (and `--admin-port`); their close is pushed on `disposers` at once. */
export async function bindDoors(options: BindOptions, disposers: Disposers): Promise<Result<BoundDoors>> {
  // The client-socket limits are read before storage opens (the ports bind first): defaults until `open`.
  let limits: () => Settings = () => DEFAULT_SETTINGS;
  const serverOptions = { limits: () => limits(), log: options.log };
  const proxyGate = createStorageGate();
  const adminGate = options.adminPort === undefined ? null : createStorageGate();
  const gates: StorageGate[] = adminGate ? [proxyGate, adminGate] : [proxyGate];
  const servers: Server[] = [];
  const inFlight = createInFlightRequests(options.onHeldChange);
  const { track, settled } = createSettlingTracker();
  let closing: Promise<void> | null = null;
  const close = (graceMs: number, log: (line: string) => void): Promise<void> =>
    (closing ??= (async () => {
      await drainRequests({ servers, gates, inFlight, settled, graceMs, log });
      await closeServers(servers);
      await settled();
    })());
  disposers.push(() => close(0, options.log));

  const proxyServer = createProxyServer(proxyGate.listener, serverOptions);
  servers.push(proxyServer);
  const port = await listen(proxyServer, options.host, options.port, '--port');
  if (!port.ok) return port;
  let adminUrl = urlOf(options.host, port.value);
  if (adminGate) {
    const adminServer = createProxyServer(adminGate.listener, serverOptions);
    servers.push(adminServer);
    const adminPort = await listen(adminServer, '127.0.0.1', options.adminPort ?? 0, '--admin-port');
    if (!adminPort.ok) return adminPort;
    adminUrl = urlOf('127.0.0.1', adminPort.value);
  }
  return {
    ok: true,
    value: {
      proxyPort: port.value,
      proxyUrl: urlOf(options.host, port.value),
      adminUrl,
      inFlight,
      open(ctx, admin, settings) {
        limits = settings;
        proxyGate.open(track(createProxyHandler(ctx, adminGate ? null : admin)));
        // The admin door keeps the proxy's guards (Host, Origin) but answers no /v1 route.
        adminGate?.open(track(createProxyHandler({ ...ctx, config: { ...ctx.config, verifyKey: () => null } }, admin)));
      },
      lose(message) {
        for (const gate of gates) gate.lose(message);
      },
      close,
    },
  };
}
