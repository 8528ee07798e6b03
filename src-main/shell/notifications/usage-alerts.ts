import type { UsageSummary } from '../../../src-shared/domain/overview';
import { formatTimeLeft } from '../tray/cooling-items';
import type { ShellNotification } from './notifications-for';

/** The usage levels worth a notification, in percent (issue 13 §8). */
export const USAGE_THRESHOLDS = [80, 95, 100] as const;

/** Two reset times this close belong to one window (a reset header may move by a second or two). */
const SAME_WINDOW_MS = 60_000;
/** A window whose reset time is unknown is re-armed once its use falls this far under the first threshold. */
const REARM_BELOW = 70;

/** What was last announced for one window: the highest threshold, and which window it was. */
export interface WindowAlert {
  /** The window's reset time when announced; null when the upstream did not say. */
  resetsAt: number | null;
  /** The highest threshold announced in this window; 0 = none yet. */
  notified: number;
}

/** Per window key (`claude:<connection>:<window>`, `pool:<pool>:<unit>:<window>`). */
export type UsageAlertState = ReadonlyMap<string, WindowAlert>;

interface Reading {
  key: string;
  title: string;
  used: number;
  resetsAt: number | null;
}

const WINDOW_NAMES: Readonly<Record<string, string>> = {
  '5h': '5-hour window',
  '7d': 'weekly window',
  '7d_opus': 'weekly Opus window',
  '7d_sonnet': 'weekly Sonnet window',
};

/** Every window with a known use, from Claude subscriptions (enabled ones) and quota pools. */
function readingsOf(summary: UsageSummary): Reading[] {
  const out: Reading[] = [];
  for (const c of summary.connections) {
    if (!c.enabled) continue;
    for (const w of c.windows) {
      if (w.used === null) continue;
      const name = WINDOW_NAMES[w.window] ?? `${w.window} window`;
      out.push({
        key: `claude:${c.name}:${w.window}`,
        title: `${c.name}: ${name}`,
        used: w.used,
        resetsAt: w.resetsAt,
      });
    }
  }
  for (const p of summary.pools) {
    for (const d of p.dimensions) {
      if (d.usedPercent === null) continue;
      out.push({
        key: `pool:${p.name}:${d.unit}:${d.window}`,
        title: `Pool ${p.name}: ${d.unit} (${d.window})`,
        used: d.usedPercent,
        resetsAt: d.resetsAt,
      });
    }
  }
  return out;
}

function sameWindow(previous: WindowAlert, reading: Reading): boolean {
  if (previous.resetsAt === null || reading.resetsAt === null) {
    return previous.resetsAt === reading.resetsAt && reading.used >= REARM_BELOW;
  }
  return Math.abs(previous.resetsAt - reading.resetsAt) <= SAME_WINDOW_MS;
}

function textOf(reading: Reading, threshold: number, now: number): ShellNotification {
  const resets =
    reading.resetsAt === null
      ? ''
      : reading.resetsAt > now
        ? ` It resets in ${formatTimeLeft(reading.resetsAt - now)}.`
        : ' It resets now.';
  if (threshold >= 100) {
    return {
      title: `${reading.title} used up`,
      body: `Requests go to other connections while it is full.${resets}`,
    };
  }
  return {
    title: `${reading.title} at ${Math.floor(reading.used)} %`,
    body: `Past ${threshold} % of its limit.${resets}`,
  };
}

/**
 * Which usage notifications to show at `now`, given what was announced before (pure, issue 13 §8):
 * each threshold of USAGE_THRESHOLDS once per window — a jump past several announces only the
 * highest — and a new window (another reset time) starts over. With no earlier state (`null`, the
 * first reading after start) nothing is shown: what is already past a threshold becomes the baseline.
 */
export function usageAlerts(
  summary: UsageSummary,
  previous: UsageAlertState | null,
  now: number,
): { notifications: ShellNotification[]; state: UsageAlertState } {
  const state = new Map<string, WindowAlert>();
  const notifications: ShellNotification[] = [];
  for (const reading of readingsOf(summary)) {
    const before = previous?.get(reading.key);
    const already = before && sameWindow(before, reading) ? before.notified : 0;
    const crossed = USAGE_THRESHOLDS.filter((t) => reading.used >= t).at(-1) ?? 0;
    if (previous !== null && crossed > already) notifications.push(textOf(reading, crossed, now));
    state.set(reading.key, { resetsAt: reading.resetsAt, notified: Math.max(already, crossed) });
  }
  // A window that reported nothing this time (no response since its reset) keeps what it had.
  for (const [key, alert] of previous ?? []) if (!state.has(key)) state.set(key, alert);
  return { notifications, state };
}
