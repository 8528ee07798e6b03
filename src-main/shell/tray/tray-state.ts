import type { ProxyInfo } from '../../../src-shared/contract/methods';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { connectionBlockedMs, coolingItems, terminalItems } from './cooling-items';

/** What the tray icon shows; one icon per state in build/tray. */
export type TrayState = 'serving' | 'cooling' | 'blocked' | 'paused';

export const TRAY_STATES: readonly TrayState[] = ['serving', 'cooling', 'blocked', 'paused'];

/**
 * The tray's state at `now`: paused wins; blocked when no connection can serve (each one cooling,
 * terminal, or behind an OPEN provider); cooling when anything limits capacity; serving otherwise.
 * With no connections at all nothing is limited, so the state is serving (the window says what to add).
 */
export function trayState(snapshot: CooldownSnapshot, info: Pick<ProxyInfo, 'paused'>, now: number): TrayState {
  if (info.paused) return 'paused';
  const rows = snapshot.connections;
  if (rows.length > 0 && rows.every((row) => connectionBlockedMs(snapshot, row, now) > 0)) return 'blocked';
  if (coolingItems(snapshot, now).length > 0 || terminalItems(snapshot).length > 0) return 'cooling';
  return 'serving';
}

/** Milliseconds until the first connection can serve again, or null when none will on its own. */
export function firstRecoveryMs(snapshot: CooldownSnapshot, now: number): number | null {
  const waits = snapshot.connections.map((row) => connectionBlockedMs(snapshot, row, now)).filter(Number.isFinite);
  return waits.length > 0 ? Math.min(...waits) : null;
}
