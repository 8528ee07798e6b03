import type { ProviderIdentity } from '../../kernel/provider-identity';

/** One upstream service recognised by its host: `suffix` matches the host or any subdomain of it. */
export interface KnownProviderHost {
  suffix: string;
  service: string;
}

/**
 * Upstream services whose error dialects the rule registries know. Leeway reaches most of them
 * as `openai-compatible` connections, so the host — not the connection kind — names the service.
 */
export const KNOWN_PROVIDER_HOSTS: readonly KnownProviderHost[] = [
  { suffix: 'anthropic.com', service: 'anthropic' },
  { suffix: 'openai.com', service: 'openai' },
  { suffix: 'agentrouter.org', service: 'agentrouter' },
  { suffix: 'opencode.ai', service: 'opencode' },
  { suffix: 'minimax.io', service: 'minimax' },
  { suffix: 'minimaxi.com', service: 'minimax' },
  { suffix: 'minimax.chat', service: 'minimax' },
  { suffix: 'openrouter.ai', service: 'openrouter' },
  { suffix: 'api.cloudflare.com', service: 'cloudflare-ai' },
  { suffix: 'deepseek.com', service: 'deepseek' },
  { suffix: 'moonshot.ai', service: 'moonshot' },
  { suffix: 'moonshot.cn', service: 'moonshot' },
  { suffix: 'generativelanguage.googleapis.com', service: 'gemini' },
  { suffix: 'z.ai', service: 'glm' },
  { suffix: 'bigmodel.cn', service: 'glm' },
  { suffix: 'groq.com', service: 'groq' },
  { suffix: 'x.ai', service: 'xai' },
  { suffix: 'mistral.ai', service: 'mistral' },
  { suffix: 'together.xyz', service: 'together' },
  { suffix: 'api.nvidia.com', service: 'nvidia' },
  { suffix: 'fireworks.ai', service: 'fireworks' },
];

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
  const hit = hosts.find(({ suffix }) => host === suffix || host.endsWith(`.${suffix}`));
  return hit ? { id: hit.service, known: true } : { id: host, known: false };
}
