import type { ConnectionKind } from '../../src-shared/domain/connection';
import type { ProviderProfile } from '../../src-shared/domain/resilience-ranges';
import { capabilitiesOf } from './provider-capabilities';

/** Which defaults (breaker thresholds, cooldown base, hint use) a provider gets; shared with the settings schemas. */
export type { ProviderProfile } from '../../src-shared/domain/resilience-ranges';

/**
 * A provider is the connection kind plus the upstream origin: ten keys on one host are one
 * provider, two OpenAI-compatible hosts are two. The id is stable and readable: `kind@origin`.
 */
export interface ProviderIdentity {
  id: string;
  kind: ConnectionKind;
  origin: string;
  profile: ProviderProfile;
}

const PRIVATE_V4 = [/^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^127\./, /^169\.254\./];

/** Loopback and private-network hosts (Ollama, LM Studio, a box on the LAN) get the local profile. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  if (host.includes(':')) return host === '::1' || /^f[cd][0-9a-f]{2}:/.test(host) || host.startsWith('fe80:');
  return PRIVATE_V4.some((re) => re.test(host));
}

export function profileOf(kind: ConnectionKind, origin: string): ProviderProfile {
  if (capabilitiesOf(kind).usesOAuth) return 'oauth';
  try {
    if (isLocalHost(new URL(origin).hostname)) return 'local';
  } catch {
    // An unparsable origin cannot be local; treat it like any remote API.
  }
  return 'apikey';
}

export function providerIdentity(kind: ConnectionKind, origin: string): ProviderIdentity {
  return { id: `${kind}@${origin}`, kind, origin, profile: profileOf(kind, origin) };
}
