import type { LaneEntry } from './lane-state';
import type { LaneStore } from './lane-store';

function isCoolingOff(entry: LaneEntry, now: number): boolean {
  return entry.coolingOffUntilMs !== undefined && now < entry.coolingOffUntilMs;
}

/** Keys whose offer is refused after a `max_wait` end, for the tray's "Clear all cooldowns (N)". */
export function listLaneCoolOffs(store: LaneStore, now: number): { key: string; untilMs: number }[] {
  const out: { key: string; untilMs: number }[] = [];
  for (const [key, entry] of store) {
    if (isCoolingOff(entry, now) && entry.coolingOffUntilMs !== undefined)
      out.push({ key, untilMs: entry.coolingOffUntilMs });
  }
  return out;
}

function withoutCoolOff(entry: LaneEntry): LaneEntry {
  const { coolingOffUntilMs: _cleared, ...rest } = entry;
  return rest;
}

/**
 * Lifts max-wait cool-offs (PROD-4): one key, or every key when `key` is omitted. The spent-budget
 * memory stays, since it restates what the server said rather than a local back-off.
 */
export function clearLaneCoolOffs(store: LaneStore, now: number, key?: string): LaneStore {
  let next: Map<string, LaneEntry> | null = null;
  for (const [k, entry] of store) {
    if ((key !== undefined && k !== key) || !isCoolingOff(entry, now)) continue;
    next ??= new Map(store);
    next.set(k, withoutCoolOff(entry));
  }
  return next ?? store;
}
