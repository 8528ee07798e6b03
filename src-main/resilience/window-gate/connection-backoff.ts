import type { ConnectionBackoffEntry, GateEntryStatus } from './gate-entries';
import type { WindowGateSettings } from './window-gate-settings';

/** Doublings stop at 2^10 even before the cap, so the arithmetic never overflows (reference rule). */
const MAX_DOUBLINGS = 10;

/** How long an entry is remembered after its last failure, so repeated failures keep escalating. */
const MIN_RETENTION_MS = 30 * 60_000;

/** PROV-5: `minRetryCooldownMs × 2^(failures − 1)`, capped at `maxRetryCooldownMs`. */
export function connectionBackoffMs(failureCount: number, settings: WindowGateSettings): number {
  const doublings = Math.min(Math.max(0, failureCount - 1), MAX_DOUBLINGS);
  return Math.min(settings.minRetryCooldownMs * 2 ** doublings, settings.maxRetryCooldownMs);
}

/** Cooling between the failure and `coolingUntil`; a failure time in the future (clock moved back) reads as over. */
function isCooling(entry: ConnectionBackoffEntry, now: number): boolean {
  return now >= entry.lastFailureAt && now < entry.coolingUntil;
}

/** True once the entry is past retention: its cooldown is over and its count should restart at one. */
export function isConnectionEntryStale(
  entry: ConnectionBackoffEntry,
  settings: WindowGateSettings,
  now: number,
): boolean {
  const retentionMs = Math.max(MIN_RETENTION_MS, settings.maxRetryCooldownMs);
  return !isCooling(entry, now) && (now < entry.lastFailureAt || now - entry.lastFailureAt >= retentionMs);
}

/** Adds one connection-level failure (PROV-5): no window, every failure cools, each one longer. */
export function addConnectionFailure(
  entry: ConnectionBackoffEntry | undefined,
  ids: { providerId: string; connectionId: string },
  settings: WindowGateSettings,
  now: number,
): ConnectionBackoffEntry {
  const previous = entry === undefined || isConnectionEntryStale(entry, settings, now) ? 0 : entry.failureCount;
  const failureCount = previous + 1;
  const coolingUntil = now + connectionBackoffMs(failureCount, settings);
  return { kind: 'connection_backoff', ...ids, failureCount, lastFailureAt: now, coolingUntil };
}

/** Status of one connection; a `coolingUntil` in the past reads as clear (PROV-8). */
export function connectionBackoffStatus(entry: ConnectionBackoffEntry | undefined, now: number): GateEntryStatus {
  if (entry === undefined) return { kind: 'clear', failures: 0 };
  if (!isCooling(entry, now)) return { kind: 'clear', failures: entry.failureCount };
  const reason = `failure ${entry.failureCount} in a row; backing off ${entry.coolingUntil - entry.lastFailureAt} ms`;
  return {
    kind: 'cooling',
    failures: entry.failureCount,
    retryAfterMs: entry.coolingUntil - now,
    until: entry.coolingUntil,
    reason,
  };
}
