import type { Catalog } from '../../kernel/catalog';
import type { EnvSource } from '../breaker/setting-overrides';
import { resolveService } from '../classify/known-providers';
import type { ProviderIdentity } from '../../kernel/provider-identity';
import type { EgressStore } from '../resilience-stores';
import { probeEgressIp } from './egress-probe';
import { EGRESS_LOOKUP_WINDOW_MS, EGRESS_SIBLING_SCAN_LIMIT, parseEgressAllowlist } from './engine/egress-lock';

/** The reference's egress-IP cache TTL: a connection is probed again at most this often. */
export const EGRESS_PROBE_TTL_MS = 5 * 60_000;
const PROBE_TIMEOUT_MS = 10_000;
const SETTING_RECHECK_MS = 30_000;

/** What the resilience service asks of the egress part; all of it best-effort, none of it throws. */
export interface EgressHooks {
  readonly allowlist: readonly string[];
  /** The upstream service a provider is, by host (`opencode` for opencode.ai). */
  serviceOf(provider: ProviderIdentity): string;
  /** Ids of allowlisted connections last seen on the same egress IP as this one (EGRESS-2/4). */
  siblingsOf(connectionName: string, now: number): string[];
  /** After each attempt: probes the connection's egress IP when the probe is on and the last one is stale. */
  touched(connectionId: string, now: number): void;
  /** Resolves once no probe is in flight (tests, shutdown). */
  idle(): Promise<void>;
}

export function createEgressRuntime(
  store: EgressStore,
  env: EnvSource,
  catalog: () => Catalog,
  now: () => number,
): EgressHooks {
  // EGRESS-9: the constant unless the operator replaces it by name, explicitly.
  const allowlist = parseEgressAllowlist(env.LEEWAY_EGRESS_IP_LOCK_PROVIDERS);
  const checkedAt = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  const serviceOf = (provider: ProviderIdentity) => resolveService(provider).id;

  function configuredProbeUrl(): string | null {
    const json = store.probeUrlJson();
    if (json === null) return null;
    try {
      const value: unknown = JSON.parse(json);
      return typeof value === 'string' ? value : null;
    } catch {
      return null;
    }
  }

  async function probe(id: string, url: string, proxy: string | null): Promise<void> {
    const result = await probeEgressIp(url, proxy, PROBE_TIMEOUT_MS);
    try {
      // A failed probe clears the IP: a stale one would lock siblings this connection no longer shares.
      store.recordEgressIp(id, result.ok ? result.value : null, now());
    } catch {
      // The database closed under a late probe (shutdown): nothing to record.
    }
  }

  return {
    allowlist,
    serviceOf,
    siblingsOf(connectionName, at) {
      try {
        const since = at - EGRESS_LOOKUP_WINDOW_MS;
        const ip = store.lastEgressIp(connectionName, since);
        if (ip === null) return [];
        const byName = catalog().byName;
        const ids: string[] = [];
        for (const name of store.connectionsOnIp(ip, connectionName, since, EGRESS_SIBLING_SCAN_LIMIT)) {
          const sibling = byName.get(name);
          if (sibling && allowlist.includes(serviceOf(sibling.provider))) ids.push(sibling.view.id);
        }
        return ids;
      } catch {
        // Reference §6.4: database errors are caught; the failing connection is still cooled.
        return [];
      }
    },
    touched(id, at) {
      const last = checkedAt.get(id);
      if (last !== undefined && at - last < EGRESS_PROBE_TTL_MS) return;
      checkedAt.set(id, at);
      let url: string | null;
      let proxy: string | null;
      try {
        url = configuredProbeUrl();
        if (url === null) {
          // Probing is off: look at the setting again in half a minute, not on every request.
          checkedAt.set(id, at - EGRESS_PROBE_TTL_MS + SETTING_RECHECK_MS);
          return;
        }
        proxy = store.outboundProxyOf(id);
      } catch {
        return;
      }
      const running = probe(id, url, proxy).finally(() => inFlight.delete(running));
      inFlight.add(running);
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
