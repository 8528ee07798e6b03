import type { ProviderProfile } from '../../kernel/provider-identity';
import type { GateEntryStatus, ProviderWindowEntry } from './gate-entries';
import type { WindowGateSettings } from './window-gate-settings';

/** Bound on remembered failure times, so a provider failing in a tight loop cannot grow memory. */
const MAX_FAILURE_TIMES = 200;

/** Times still inside the window at `now`; a time in the future (clock moved back) is dropped like a stale one. */
function inWindow(times: readonly number[], windowMs: number, now: number): number[] {
  return times.filter((t) => t <= now && now - t < windowMs);
}

/** True while a tripped window is still cooling; `until` in the past, or a clock moved back, reads as over (PROV-8). */
function isCooling(entry: ProviderWindowEntry, now: number): boolean {
  return entry.cooling !== null && now >= entry.cooling.since && now < entry.cooling.until;
}

/**
 * Adds one provider-level failure (PROV-3): stale times leave the window, and the provider starts
 * cooling only when the failures inside it reach the threshold (PROV-4). A failure while cooling
 * is remembered but does not extend the cooldown, so the provider always comes back on time.
 */
export function addProviderFailure(
  entry: ProviderWindowEntry | undefined,
  provider: { id: string; profile: ProviderProfile },
  settings: WindowGateSettings,
  now: number,
): ProviderWindowEntry {
  const profile = settings.profiles[provider.profile];
  const failureTimes = [...inWindow(entry?.failureTimes ?? [], profile.providerFailureWindowMs, now), now].slice(
    -MAX_FAILURE_TIMES,
  );
  const base = { kind: 'provider_window' as const, providerId: provider.id, profile: provider.profile, failureTimes };
  if (entry !== undefined && isCooling(entry, now)) return { ...base, cooling: entry.cooling };
  if (failureTimes.length < profile.providerFailureThreshold) return { ...base, cooling: null };
  const minutes = Math.round(profile.providerFailureWindowMs / 60_000);
  const reason = `${failureTimes.length} failures within ${minutes} min reached the threshold of ${profile.providerFailureThreshold}`;
  return { ...base, cooling: { since: now, until: now + profile.providerCooldownMs, reason } };
}

/** A success clears the failure window and any cooldown (PROV-4); the entry stays for the snapshot. */
export function clearProviderWindow(entry: ProviderWindowEntry): ProviderWindowEntry {
  return { ...entry, failureTimes: [], cooling: null };
}

/**
 * The refreshed entry (PROV-7): an expired cooldown is dropped and stale times leave the window;
 * undefined when nothing is left worth keeping, which is how the sweep forgets a provider.
 */
export function refreshProviderWindow(
  entry: ProviderWindowEntry,
  settings: WindowGateSettings,
  now: number,
): ProviderWindowEntry | undefined {
  const failureTimes = inWindow(entry.failureTimes, settings.profiles[entry.profile].providerFailureWindowMs, now);
  const cooling = isCooling(entry, now) ? entry.cooling : null;
  if (cooling === null && failureTimes.length === 0) return undefined;
  if (cooling === entry.cooling && failureTimes.length === entry.failureTimes.length) return entry;
  return { ...entry, failureTimes, cooling };
}

/** Status of one provider read through the refresh, never from the raw stored fields (PROV-7). */
export function providerWindowStatus(
  entry: ProviderWindowEntry | undefined,
  settings: WindowGateSettings,
  now: number,
): GateEntryStatus {
  const current = entry === undefined ? undefined : refreshProviderWindow(entry, settings, now);
  const failures = current?.failureTimes.length ?? 0;
  if (current?.cooling == null) return { kind: 'clear', failures };
  const { until, reason } = current.cooling;
  return { kind: 'cooling', failures, retryAfterMs: until - now, until, reason };
}
