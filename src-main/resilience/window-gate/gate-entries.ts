import type { ProviderProfile } from '../../kernel/provider-identity';

/** A provider-level entry (PROV-3): recent failure times, and the cooldown once they hit the threshold. */
export interface ProviderWindowEntry {
  kind: 'provider_window';
  providerId: string;
  /** Profile at the last failure; picks the threshold, window and cooldown. */
  profile: ProviderProfile;
  /** Failure times still inside the window as of the last failure, oldest first. */
  failureTimes: number[];
  /** Set when the window tripped; it runs its full length and later failures never extend it. */
  cooling: { since: number; until: number; reason: string } | null;
}

/** A connection-level entry (PROV-5, key `provider:connectionId`): exponential backoff, no window. */
export interface ConnectionBackoffEntry {
  kind: 'connection_backoff';
  providerId: string;
  connectionId: string;
  /** Consecutive failures; each one doubles the cooldown up to the cap. */
  failureCount: number;
  lastFailureAt: number;
  coolingUntil: number;
}

/** One entry of the in-memory tracker (ARCHITECTURE §3: gate windows live in memory). */
export type GateEntry = ProviderWindowEntry | ConnectionBackoffEntry;

/** What an accessor sees after refreshing an entry against `now` (PROV-7). */
export type GateEntryStatus =
  | { kind: 'clear'; failures: number }
  | { kind: 'cooling'; failures: number; retryAfterMs: number; until: number; reason: string };

/** Whether traffic may go to a provider or connection; refusals say why and for how long. */
export type GateDecision =
  | { allowed: true }
  | { allowed: false; reason: 'provider_cooldown' | 'connection_cooldown'; retryAfterMs: number; detail: string };

/** Map key of a provider-level entry. */
export function providerGateKey(providerId: string): string {
  return providerId;
}

/** Map key of a connection-level entry, as the spec names it (`provider:connectionId`). */
export function connectionGateKey(providerId: string, connectionId: string): string {
  return `${providerId}:${connectionId}`;
}

/** Empty and "unknown" provider ids carry no identity, so the tracker ignores them (reference rule). */
export function isTrackableProvider(providerId: string): boolean {
  const id = providerId.trim();
  return id !== '' && id !== 'unknown';
}
