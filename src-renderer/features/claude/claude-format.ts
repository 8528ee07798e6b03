import { LANE_END_TEXT, type ClaudeConnectionStatus, type ClaudeLaneView } from '../../../src-shared/domain/claude';

export { LANE_END_TEXT };
import { formatCountdown } from '../connections/connection-status';

/** Limit-reset outcomes that put the request back at full speed. */
const GRANTED: ReadonlySet<string> = new Set(['reset', 'not_limited', 'recent_reset']);

/** Utilization (a fraction, 0.72) as a whole percentage: "72%". */
export function formatPercent(utilization: number): string {
  return `${Math.round(utilization * 100)}%`;
}

/** "14:05" in the user's locale. */
export function formatHourMinute(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** Time until a reset: "1:23:45" / "04:05" under a day, "3d 4h" beyond. */
export function formatResetIn(ms: number): string {
  const hours = Math.floor(Math.max(0, ms) / 3_600_000);
  if (hours < 24) return formatCountdown(ms);
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** How full a window looks: ok below 75 %, warn below 90 %, err from there or once the upstream refuses. */
export function usageLevel(utilization: number, status: string | undefined): 'ok' | 'warn' | 'err' {
  if (status === 'rejected' || utilization >= 0.9) return 'err';
  return utilization >= 0.75 ? 'warn' : 'ok';
}

/** The lane badge text at `now` (core clock). */
export function laneText(lane: ClaudeLaneView, now: number): string {
  switch (lane.kind) {
    case 'idle':
      return 'Low priority: idle';
    case 'active':
      return `Low priority: active until ${formatHourMinute(lane.resetsAtMs)}`;
    case 'waiting':
      return `Low priority: waiting for a slot (attempt ${lane.attempts}, next try in ${formatCountdown(lane.nextTryAtMs - now)})`;
    case 'ended':
      return `Low priority: ended: ${LANE_END_TEXT[lane.reason]}`;
  }
}

/** Why the lane will not be entered again yet, when something holds it off (max-wait cool-off, spent budget). */
export function laneBlockText(lane: ClaudeLaneView): string | null {
  if (lane.kind === 'active' || lane.kind === 'waiting') return null;
  if (lane.budgetSpentUntilMs !== undefined) return `Budget spent until ${formatHourMinute(lane.budgetSpentUntilMs)}`;
  if (lane.coolingOffUntilMs !== undefined) return `Not re-entered before ${formatHourMinute(lane.coolingOffUntilMs)}`;
  return null;
}

/** "Last limit reset (14:05): session limit reset granted", and whether it was granted. */
export function lastResetText(lastReset: NonNullable<ClaudeConnectionStatus['lastReset']>): {
  text: string;
  granted: boolean;
} {
  return {
    text: `Last limit reset (${formatHourMinute(lastReset.at)}): ${lastReset.reason}`,
    granted: GRANTED.has(lastReset.outcome),
  };
}

/** The activity tag for a request a Claude hook served, with what it means; null for ordinary requests. */
export function servedViaTag(servedVia: string | null): { label: string; title: string } | null {
  switch (servedVia) {
    case 'low-priority-accepted':
      return { label: 'low priority', title: 'Served in Anthropic’s low-priority lane after the usage limit' };
    case 'slot-busy':
      return { label: 'low priority', title: 'Served in the low-priority lane after waiting for a free slot' };
    case 'limit-reset':
      return { label: 'after reset', title: 'Served at full speed after claiming the subscription’s limit reset' };
    default:
      return null;
  }
}
