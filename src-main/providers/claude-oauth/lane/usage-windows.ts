import type { ClaudeUsage, ClaudeUsageWindow } from '../../../../src-shared/domain/claude';
import { readBoolean, readNonNegative, toHeaderMap, type HeaderSource } from './header-source';
import { UNIFIED_PREFIX } from './unified-headers';

/** One usage window as the headers state it; `utilization` is a fraction (0.42 = 42 %). Shared with the UI. */
export type UsageWindow = ClaudeUsageWindow;
/** Paid overage ("extra usage"): not a window of the plan, so kept apart from them. */
export type UsageOverage = NonNullable<ClaudeUsage['overage']>;
/** What the UI shows about a Claude subscription's usage, read off any upstream response. */
export type UsageWindows = Omit<ClaudeUsage, 'observedAt'>;

const WINDOW_HEADER = /^(.+)-(utilization|reset|status)$/;

function compact<T extends object>(value: T): T | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length > 0 ? (Object.fromEntries(entries) as T) : undefined;
}

function collectWindows(map: ReadonlyMap<string, string>): Record<string, UsageWindow> {
  const windows: Record<string, UsageWindow> = {};
  for (const [name, raw] of map) {
    if (!name.startsWith(UNIFIED_PREFIX)) continue;
    const match = WINDOW_HEADER.exec(name.slice(UNIFIED_PREFIX.length));
    const [, window, field] = match ?? [];
    // The slow lane's budget and the overage share the suffixes but are not plan windows.
    if (!window || !field || window === 'overage' || window.startsWith('slow')) continue;
    const entry = (windows[window] ??= {});
    if (field === 'status') entry.status = raw;
    else {
      const value = readNonNegative(raw);
      if (value === undefined) continue;
      if (field === 'utilization') entry.utilization = value;
      else entry.resetsAtSeconds = value;
    }
  }
  for (const [window, entry] of Object.entries(windows)) if (!compact(entry)) delete windows[window];
  return windows;
}

/** Parses every unified usage header for the UI; null when the response carries none. */
export function parseUsageWindows(source: HeaderSource): UsageWindows | null {
  return usageFromMap(toHeaderMap(source));
}

/** `parseUsageWindows` over headers already flattened (see `readClaudeUnified`). */
export function usageFromMap(map: ReadonlyMap<string, string>): UsageWindows | null {
  if (![...map.keys()].some((name) => name.startsWith(UNIFIED_PREFIX))) return null;
  const text = (suffix: string): string | undefined => map.get(UNIFIED_PREFIX + suffix);
  const windows = collectWindows(map);
  const overage = compact<UsageOverage>({
    status: text('overage-status'),
    inUse: readBoolean(text('overage-in-use')),
    utilization: readNonNegative(text('overage-utilization')),
    resetsAtSeconds: readNonNegative(text('overage-reset')),
  });
  const top = compact({
    status: text('status'),
    resetsAtSeconds: readNonNegative(text('reset')),
    representativeClaim: text('representative-claim'),
    fiveHour: windows['5h'],
    sevenDay: windows['7d'],
    overage,
  });
  return { ...top, windows };
}
