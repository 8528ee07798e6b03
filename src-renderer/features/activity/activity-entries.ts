import type { RequestLogEntry } from '../../../src-shared/domain/request-log';

/** How many recent requests one page holds; older ones stay in the core's log until "Load older". */
export const ACTIVITY_LIMIT = 100;

/** Merges by id, newest first, capped: snapshots and live events may overlap in either order. */
export function mergeEntries(
  current: RequestLogEntry[],
  incoming: RequestLogEntry[],
  limit = ACTIVITY_LIMIT,
): RequestLogEntry[] {
  const byId = new Map<number, RequestLogEntry>();
  for (const entry of [...current, ...incoming]) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, limit);
}
