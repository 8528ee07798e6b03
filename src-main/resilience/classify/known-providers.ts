import type { ProviderIdentity } from '../../kernel/provider-identity';
import { hostMatches, UPSTREAM_HOSTS } from '../../kernel/upstream-hosts';

/** One upstream service recognised by its host: `suffix` matches the host or any subdomain of it. */
export interface KnownProviderHost {
  suffix: string;
  service: string;
}

/**
 * Upstream services whose error dialects the rule registries know, from the one host catalog. Leeway
 * reaches most of them as `openai-compatible` connections, so the host — not the kind — names the service.
 */
export const KNOWN_PROVIDER_HOSTS: readonly KnownProviderHost[] = UPSTREAM_HOSTS.flatMap((h) =>
  h.service === undefined ? [] : [{ suffix: h.suffix, service: h.service }],
);

/** The upstream service behind a provider; `known` is false for a host the catalog has never seen. */
export interface UpstreamService {
  /** Catalog id (`agentrouter`), or the bare host for an unknown service. */
  id: string;
  known: boolean;
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return origin.toLowerCase();
  }
}

/** Names the service a provider talks to, by the host of its origin. */
export function resolveService(
  provider: ProviderIdentity,
  hosts: readonly KnownProviderHost[] = KNOWN_PROVIDER_HOSTS,
): UpstreamService {
  const host = hostOf(provider.origin);
  const hit = hosts.find(({ suffix }) => hostMatches(host, suffix));
  return hit ? { id: hit.service, known: true } : { id: host, known: false };
}
