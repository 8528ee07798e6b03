import type { HeldAction, HeldRequestView } from '../../../src-shared/domain/held';

/** At most this many held requests in the tray; the rest are counted on one more line (the window lists all). */
export const MAX_HELD_LINES = 8;

const ACTION_LABELS: Record<HeldAction, string> = {
  cancel: 'Cancel',
  'go-now': 'Use any connection now',
  'release-lease': 'Release the lease',
};

export const heldActionLabel = (action: HeldAction): string => ACTION_LABELS[action];

/** "claude-sonnet-4-5 (laptop) — max-2's cooldown to end at 14:03:10 UTC, 41 s left". */
export function heldLine(row: HeldRequestView, now: number): string {
  const who = row.keyName ? ` (${row.keyName})` : '';
  const left = row.until === null ? '' : `, ${Math.max(0, Math.ceil((row.until - now) / 1000))} s left`;
  return `${row.model}${who} — ${row.what}${left}`;
}
