import type { ConnectionCooldownRow, ConnectionTestStatus } from '../../../src-shared/domain/cooldown';

export type TerminalState = Exclude<ConnectionTestStatus, 'active' | 'unavailable'>;

/** What the status chip shows: serving, cooling until a moment, or stuck until a person acts (COOL-7). */
export type ConnectionStatus =
  | { kind: 'unknown' }
  | { kind: 'ok' }
  | { kind: 'cooling'; remainingMs: number }
  | { kind: 'terminal'; state: TerminalState };

export const TERMINAL_LABELS: Record<TerminalState, string> = {
  banned: 'Banned',
  expired: 'Expired',
  credits_exhausted: 'Credits exhausted',
  needs_reauth: 'Sign in again (re-import)',
};

/** The next step for each terminal state; Reset alone does not fix the cause. */
export const TERMINAL_ADVICE: Record<TerminalState, string> = {
  banned: 'The upstream refused this account repeatedly. Check the account, then reset the connection.',
  expired: 'The credential no longer works. Paste a new one with Edit (that also resets it), or reset to retry.',
  credits_exhausted: 'The account is out of credits. Top it up, then reset the connection.',
  needs_reauth:
    'The Claude login was refused. Sign in with Claude Code on this machine, then Re-import (or paste new tokens with Edit); either also resets the connection.',
};

const isTerminalState = (status: ConnectionTestStatus): status is TerminalState =>
  status !== 'active' && status !== 'unavailable';

/**
 * Reads a connection's cooldown row at `now`. A missing row means nothing is wrong; `loaded=false`
 * means the snapshot has not arrived yet. Cooldowns end by time alone (COOL-11).
 */
export function connectionStatus(row: ConnectionCooldownRow | undefined, now: number, loaded = true): ConnectionStatus {
  if (!loaded) return { kind: 'unknown' };
  if (!row) return { kind: 'ok' };
  if (row.terminal || isTerminalState(row.testStatus)) {
    return { kind: 'terminal', state: isTerminalState(row.testStatus) ? row.testStatus : 'banned' };
  }
  if (row.rateLimitedUntil !== null && row.rateLimitedUntil > now) {
    return { kind: 'cooling', remainingMs: row.rateLimitedUntil - now };
  }
  return { kind: 'ok' };
}

/** `mm:ss` (or `h:mm:ss` past an hour), rounded up so a countdown never shows 00:00 while cooling. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}
