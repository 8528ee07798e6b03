import type { ComboTarget, ComboView } from '../../../src-shared/domain/combo';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { connectionBlockedMs, formatTimeLeft, isTerminalRow } from '../tray/cooling-items';

/** A desktop notification, decided here and shown by the Electron glue. */
export interface ShellNotification {
  title: string;
  body: string;
}

/** What to say per terminal status; an unknown one gets the generic text. */
const TERMINAL_TEXT: Readonly<Record<string, { title: string; body: string }>> = {
  banned: {
    title: 'was banned',
    body: 'The upstream refuses this account. Fix it there, then use Reset connection in Leeway.',
  },
  expired: {
    title: 'credential expired',
    body: 'Sign in again or paste a new key in Leeway; requests skip it until then.',
  },
  credits_exhausted: { title: 'is out of credits', body: 'Top up the account, then use Reset connection in Leeway.' },
  needs_reauth: { title: 'needs a new sign-in', body: 'Its sign-in was refused; sign in again in Leeway.' },
};

const MAX_DETAIL = 120;

function terminalOf(snapshot: CooldownSnapshot, id: string): string | null {
  const row = snapshot.connections.find((c) => c.id === id);
  return row && isTerminalRow(row) ? row.testStatus : null;
}

/** Milliseconds until the target can serve (Infinity: needs a person), measured at the snapshot's own time. */
function targetBlockedMs(snapshot: CooldownSnapshot, target: ComboTarget): number | null {
  const row = snapshot.connections.find((c) => c.name === target.connection);
  if (!row) return null;
  const at = snapshot.now;
  const lock =
    target.model === null
      ? 0
      : Math.max(
          0,
          ...snapshot.models
            .filter((m) => m.connection === row.name && m.model === target.model)
            .map((m) => m.expiresAt - at),
        );
  return Math.max(connectionBlockedMs(snapshot, row, at), lock);
}

/** Time until the combo's first target serves again, or null when none of its targets is known or one serves now. */
function comboBlockedMs(snapshot: CooldownSnapshot, combo: ComboView): number | null {
  const waits = combo.targets.map((t) => targetBlockedMs(snapshot, t)).filter((w): w is number => w !== null);
  if (waits.length === 0 || waits.some((w) => w === 0)) return null;
  return Math.min(...waits);
}

/**
 * Notifications for what changed between two cooldown snapshots, on transitions only (never
 * repeated while a state lasts): a connection becoming banned, expired or out of credits, and a
 * combo whose every target became unavailable. The first snapshot (no `previous`) is the baseline.
 */
export function notificationsFor(
  previous: CooldownSnapshot | null,
  next: CooldownSnapshot,
  combos: readonly ComboView[],
): ShellNotification[] {
  if (!previous) return [];
  const out: ShellNotification[] = [];
  for (const row of next.connections) {
    const status = terminalOf(next, row.id);
    if (status === null || terminalOf(previous, row.id) === status) continue;
    const text = TERMINAL_TEXT[status] ?? {
      title: `is ${status.replace(/_/g, ' ')}`,
      body: 'It needs a person: fix it, then use Reset connection in Leeway.',
    };
    const detail = row.lastError ? `\n${row.lastError.slice(0, MAX_DETAIL)}` : '';
    out.push({ title: `${row.name} ${text.title}`, body: `${text.body}${detail}` });
  }
  for (const combo of combos) {
    const wait = comboBlockedMs(next, combo);
    if (wait === null || comboBlockedMs(previous, combo) !== null) continue;
    const back = Number.isFinite(wait)
      ? `the first is back in ${formatTimeLeft(wait)}`
      : 'none recovers without a reset';
    out.push({
      title: `${combo.name}: every connection is unavailable`,
      body: `Requests to ${combo.name} wait or fail; ${back}.`,
    });
  }
  return out;
}

/** Caps a burst (many bans at once) to a few notifications plus one that counts the rest. */
export function capNotifications(list: readonly ShellNotification[], max = 3): ShellNotification[] {
  if (list.length <= max) return [...list];
  const rest = list.length - (max - 1);
  return [
    ...list.slice(0, max - 1),
    { title: `${rest} more Leeway alerts`, body: 'Open Leeway to see every connection’s state.' },
  ];
}
