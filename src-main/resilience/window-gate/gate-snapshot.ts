import type { ProviderProfile } from '../../kernel/provider-identity';
import { connectionBackoffStatus } from './connection-backoff';
import type { GateEntryStatus } from './gate-entries';
import { providerWindowStatus } from './provider-window';
import type { WindowGateState } from './window-gate';
import type { WindowGateSettings } from './window-gate-settings';

/** One provider's window as the cooldown panels show it (PROV-9; matches ProviderBreakerRow.gate). */
export interface ProviderGateRow {
  providerId: string;
  profile: ProviderProfile;
  cooling: boolean;
  failuresInWindow: number;
  threshold: number;
  /** Null when the provider is not cooling. */
  retryAfterMs: number | null;
  reason: string | null;
}

/** One connection's backoff as the cooldown panels show it (PROV-9). */
export interface ConnectionGateRow {
  providerId: string;
  connectionId: string;
  cooling: boolean;
  failureCount: number;
  retryAfterMs: number | null;
  reason: string | null;
}

/** Everything the tracker holds, refreshed against `now`, for the health and cooldown views. */
export interface GateSnapshot {
  enabled: boolean;
  providers: ProviderGateRow[];
  connections: ConnectionGateRow[];
}

function cooldownOf(status: GateEntryStatus): { cooling: boolean; retryAfterMs: number | null; reason: string | null } {
  return status.kind === 'cooling'
    ? { cooling: true, retryAfterMs: status.retryAfterMs, reason: status.reason }
    : { cooling: false, retryAfterMs: null, reason: null };
}

/**
 * Reads every entry through the same refresh the gate decisions use (PROV-7), so an expired
 * cooldown never shows as active; while the layer is off nothing blocks, so nothing is listed.
 */
export function gateSnapshot(state: WindowGateState, settings: WindowGateSettings, now: number): GateSnapshot {
  const snapshot: GateSnapshot = { enabled: settings.enabled, providers: [], connections: [] };
  if (!settings.enabled) return snapshot;
  for (const entry of state.values()) {
    if (entry.kind === 'provider_window') {
      const status = providerWindowStatus(entry, settings, now);
      snapshot.providers.push({
        providerId: entry.providerId,
        profile: entry.profile,
        failuresInWindow: status.failures,
        threshold: settings.profiles[entry.profile].providerFailureThreshold,
        ...cooldownOf(status),
      });
    } else {
      const status = connectionBackoffStatus(entry, now);
      const { providerId, connectionId } = entry;
      snapshot.connections.push({ providerId, connectionId, failureCount: status.failures, ...cooldownOf(status) });
    }
  }
  snapshot.providers.sort((a, b) => a.providerId.localeCompare(b.providerId));
  snapshot.connections.sort((a, b) =>
    `${a.providerId}:${a.connectionId}`.localeCompare(`${b.providerId}:${b.connectionId}`),
  );
  return snapshot;
}
