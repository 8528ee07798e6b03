import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { connectionBlockedMs, formatTimeLeft } from '../tray/cooling-items';
import type { ShellNotification } from './notifications-for';

/** Out for less than this, a connection coming back is routine (a short cooldown), not news. */
export const MIN_OUTAGE_MS = 60_000;

/** Since when each connection (by id) has been unable to serve, as last seen. */
export type OutageState = ReadonlyMap<string, { name: string; since: number }>;

/**
 * Which "connection recovered" notifications to show at `now` (pure, issue 13 §8). A connection is
 * out while its cooldown, a terminal state or its provider's breaker keeps it from serving; it has
 * recovered once none does. Only outages of at least MIN_OUTAGE_MS are announced, once each. Cooldowns
 * end by time, without a new snapshot, so the caller also asks with the last snapshot on a timer.
 * A connection that left the snapshot (removed) is forgotten without a word.
 */
export function recoveryAlerts(
  snapshot: CooldownSnapshot,
  previous: OutageState,
  now: number,
  minOutageMs = MIN_OUTAGE_MS,
): { notifications: ShellNotification[]; state: OutageState } {
  const state = new Map<string, { name: string; since: number }>();
  const notifications: ShellNotification[] = [];
  for (const row of snapshot.connections) {
    const before = previous.get(row.id);
    if (connectionBlockedMs(snapshot, row, now) > 0) {
      state.set(row.id, { name: row.name, since: before?.since ?? now });
      continue;
    }
    if (before && now - before.since >= minOutageMs) {
      notifications.push({
        title: `${row.name} is available again`,
        body: `It was unavailable for ${formatTimeLeft(now - before.since)}; requests go to it again.`,
      });
    }
  }
  return { notifications, state };
}
