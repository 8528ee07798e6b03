import type { ProviderProfile } from '../../kernel/provider-identity';
import { addConnectionFailure, connectionBackoffStatus, isConnectionEntryStale } from './connection-backoff';
import {
  connectionGateKey,
  isTrackableProvider,
  providerGateKey,
  type ConnectionBackoffEntry,
  type GateDecision,
  type GateEntry,
  type GateEntryStatus,
  type ProviderWindowEntry,
} from './gate-entries';
import {
  addProviderFailure,
  clearProviderWindow,
  providerWindowStatus,
  refreshProviderWindow,
} from './provider-window';
import type { WindowGateSettings } from './window-gate-settings';

/** The whole tracker (PROV-2): provider ids and `provider:connectionId` keys to their entries. */
export type WindowGateState = ReadonlyMap<string, GateEntry>;

/** A tracker with nothing recorded. */
export function emptyGate(): WindowGateState {
  return new Map();
}

function providerEntry(state: WindowGateState, providerId: string): ProviderWindowEntry | undefined {
  const entry = state.get(providerGateKey(providerId));
  return entry?.kind === 'provider_window' ? entry : undefined;
}

function connectionEntry(
  state: WindowGateState,
  providerId: string,
  connectionId: string,
): ConnectionBackoffEntry | undefined {
  const entry = state.get(connectionGateKey(providerId, connectionId));
  return entry?.kind === 'connection_backoff' ? entry : undefined;
}

function withEntry(state: WindowGateState, key: string, entry: GateEntry): WindowGateState {
  return new Map(state).set(key, entry);
}

/** Records a provider-level failure (PROV-3); a no-op while the layer is off (PROV-1). */
export function recordProviderFailure(
  state: WindowGateState,
  provider: { id: string; profile: ProviderProfile },
  settings: WindowGateSettings,
  now: number,
): WindowGateState {
  if (!settings.enabled || !isTrackableProvider(provider.id)) return state;
  const next = addProviderFailure(providerEntry(state, provider.id), provider, settings, now);
  return withEntry(state, providerGateKey(provider.id), next);
}

/** Records a connection-level failure (PROV-5); a no-op while the layer is off (PROV-1). */
export function recordConnectionFailure(
  state: WindowGateState,
  providerId: string,
  connectionId: string,
  settings: WindowGateSettings,
  now: number,
): WindowGateState {
  if (!settings.enabled || !isTrackableProvider(providerId)) return state;
  const next = addConnectionFailure(
    connectionEntry(state, providerId, connectionId),
    { providerId, connectionId },
    settings,
    now,
  );
  return withEntry(state, connectionGateKey(providerId, connectionId), next);
}

/** A success clears the provider's window (PROV-4) and, when given, that connection's backoff. */
export function recordGateSuccess(
  state: WindowGateState,
  providerId: string,
  connectionId: string | null,
): WindowGateState {
  const provider = providerEntry(state, providerId);
  const hasConnection = connectionId !== null && connectionEntry(state, providerId, connectionId) !== undefined;
  if (provider === undefined && !hasConnection) return state;
  const next = new Map(state);
  if (provider !== undefined) next.set(providerGateKey(providerId), clearProviderWindow(provider));
  if (hasConnection) next.delete(connectionGateKey(providerId, connectionId));
  return next;
}

function decide(status: GateEntryStatus, reason: 'provider_cooldown' | 'connection_cooldown'): GateDecision {
  if (status.kind === 'clear') return { allowed: true };
  return { allowed: false, reason, retryAfterMs: status.retryAfterMs, detail: status.reason };
}

/** Whether combo resolution may try this provider now (PROV-2), read through the refresh (PROV-7). */
export function checkProviderGate(
  state: WindowGateState,
  providerId: string,
  settings: WindowGateSettings,
  now: number,
): GateDecision {
  if (!settings.enabled) return { allowed: true };
  return decide(providerWindowStatus(providerEntry(state, providerId), settings, now), 'provider_cooldown');
}

/** Whether this connection is past its backoff (PROV-5); expired backoff reads as clear (PROV-8). */
export function checkConnectionGate(
  state: WindowGateState,
  providerId: string,
  connectionId: string,
  settings: WindowGateSettings,
  now: number,
): GateDecision {
  if (!settings.enabled) return { allowed: true };
  return decide(connectionBackoffStatus(connectionEntry(state, providerId, connectionId), now), 'connection_cooldown');
}

/** Drops expired cooldowns and forgets entries with nothing left to remember; the caller runs it when convenient. */
export function sweepGate(state: WindowGateState, settings: WindowGateSettings, now: number): WindowGateState {
  const next = new Map<string, GateEntry>();
  for (const [key, entry] of state) {
    if (entry.kind === 'connection_backoff') {
      if (!isConnectionEntryStale(entry, settings, now)) next.set(key, entry);
      continue;
    }
    const refreshed = refreshProviderWindow(entry, settings, now);
    if (refreshed !== undefined) next.set(key, refreshed);
  }
  return next;
}
