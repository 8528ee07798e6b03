import type { ClaudeConnectionStatus, ClaudeUsageWindow } from '../../../src-shared/domain/claude';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { formatTimeLeft } from './cooling-items';

/** One Claude subscription connection as the tray lists it: its name joined to its `claude.status` entry. */
export interface TrayClaudeConnection {
  name: string;
  status: ClaudeConnectionStatus;
}

/** "14:05" in the machine's local time. */
export function formatClock(ms: number): string {
  const at = new Date(ms);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

const resetAtMs = (window: ClaudeUsageWindow): number | null =>
  window.resetsAtSeconds === undefined ? null : window.resetsAtSeconds * 1000;

/** "5h 72% (resets 1:23:45)"; "5h reset" once its reset has passed (the figure seen is stale); null when unseen. */
function windowPart(
  label: string,
  window: ClaudeUsageWindow | undefined,
  now: number,
  countdown: boolean,
): string | null {
  if (!window) return null;
  const resetsAt = resetAtMs(window);
  if (resetsAt !== null && resetsAt <= now) return `${label} reset`;
  const percent = window.utilization === undefined ? '—' : `${Math.round(window.utilization * 100)}%`;
  return countdown && resetsAt !== null
    ? `${label} ${percent} (resets ${formatTimeLeft(resetsAt - now)})`
    : `${label} ${percent}`;
}

/** "max-1 — 5h 72% (resets 1:23:45) · week 40%", or "max-1 — no usage seen yet". */
export function claudeUsageLine(item: TrayClaudeConnection, now: number): string {
  const usage = item.status.usage;
  const parts = [windowPart('5h', usage?.fiveHour, now, true), windowPart('week', usage?.sevenDay, now, false)].filter(
    (p): p is string => p !== null,
  );
  return `${item.name} — ${parts.length > 0 ? parts.join(' · ') : 'no usage seen yet'}`;
}

/** Whether the core reports this connection's sign-in as refused (a new login is the only cure). */
export function needsSignIn(item: TrayClaudeConnection, snapshot: CooldownSnapshot): boolean {
  return snapshot.connections.some((c) => c.id === item.status.connectionId && c.testStatus === 'needs_reauth');
}

/** The lane or sign-in state worth a line: "needs sign-in", "low priority until 14:05", waiting for a slot; else null. */
export function claudeLaneLine(item: TrayClaudeConnection, snapshot: CooldownSnapshot, now: number): string | null {
  if (needsSignIn(item, snapshot)) return 'needs sign-in';
  const lane = item.status.lane;
  switch (lane.kind) {
    case 'active':
      return `low priority until ${formatClock(lane.resetsAtMs)}`;
    case 'waiting':
      return `low priority: waiting for a slot (attempt ${lane.attempts}, next try in ${formatTimeLeft(lane.nextTryAtMs - now)})`;
    case 'idle':
    case 'ended':
      return null;
  }
}

/** True while a Claude line counts down (a 5-hour reset ahead, or a slot wait), so the menu redraws each second. */
export function claudeHasCountdown(items: readonly TrayClaudeConnection[], now: number): boolean {
  return items.some(({ status }) => {
    const resetsAt = status.usage?.fiveHour ? resetAtMs(status.usage.fiveHour) : null;
    return (resetsAt !== null && resetsAt > now) || status.lane.kind === 'waiting';
  });
}

/**
 * Joins `claude.status` to connection names, leaving out connections switched off; a status whose
 * connection is not (yet) listed shows under its id rather than vanishing.
 */
export function claudeConnections(
  status: readonly ClaudeConnectionStatus[],
  names: ReadonlyMap<string, string>,
  disabledIds: ReadonlySet<string>,
): TrayClaudeConnection[] {
  return status
    .filter((s) => !disabledIds.has(s.connectionId))
    .map((s) => ({ name: names.get(s.connectionId) ?? s.connectionId, status: s }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
