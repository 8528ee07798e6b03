import type {
  ConnectionCooldownRow,
  ConnectionTestStatus,
  CooldownSnapshot,
  ProviderBreakerRow,
} from '../../../src-shared/domain/cooldown';

/** A transient limit that heals by time and that "Clear all cooldowns" clears (PROD-4). */
export type CoolingItem =
  | { kind: 'connection'; name: string; remainingMs: number; reason: string | null }
  | { kind: 'provider'; provider: string; label: string; remainingMs: number; reason: 'circuit_open' | 'window_gate' }
  | { kind: 'model'; key: string; connection: string; model: string; remainingMs: number; reason: string };

/** A connection in a terminal state: only a reset or a new credential ends it (COOL-10). */
export interface TerminalItem {
  name: string;
  /** banned, expired, credits_exhausted … — whatever terminal status the core reports. */
  status: ConnectionTestStatus;
  lastError: string | null;
}

const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['banned', 'expired', 'credits_exhausted', 'needs_reauth']);

/** The core's own `terminal` flag decides; the status list is a second guard for older snapshots. */
export function isTerminalRow(row: Pick<ConnectionCooldownRow, 'terminal' | 'testStatus'>): boolean {
  return row.terminal || TERMINAL_STATUSES.has(row.testStatus);
}

/**
 * Time left at `now` for a wait measured when the snapshot was taken, so a cached snapshot can
 * count down every second without asking the core again.
 */
export function leftAt(snapshot: CooldownSnapshot, retryAfterMs: number | null, now: number): number {
  if (retryAfterMs === null) return 0;
  return Math.max(0, retryAfterMs - Math.max(0, now - snapshot.now));
}

export function connectionCoolingMs(snapshot: CooldownSnapshot, row: ConnectionCooldownRow, now: number): number {
  return isTerminalRow(row) ? 0 : leftAt(snapshot, row.retryAfterMs, now);
}

/** How long a provider refuses everything: an OPEN (or saturated HALF_OPEN) breaker or a cooling gate. */
export function providerBlockedMs(snapshot: CooldownSnapshot, row: ProviderBreakerRow, now: number): number {
  const breaker = row.state === 'OPEN' || row.state === 'HALF_OPEN' ? leftAt(snapshot, row.retryAfterMs, now) : 0;
  const gate = row.gate?.cooling ? leftAt(snapshot, row.gate.retryAfterMs, now) : 0;
  return Math.max(breaker, gate);
}

/** Milliseconds until this connection can serve again: 0 now, Infinity when only a person can help. */
export function connectionBlockedMs(snapshot: CooldownSnapshot, row: ConnectionCooldownRow, now: number): number {
  if (isTerminalRow(row)) return Number.POSITIVE_INFINITY;
  const provider = snapshot.providers.find((p) => p.provider === row.provider);
  return Math.max(connectionCoolingMs(snapshot, row, now), provider ? providerBlockedMs(snapshot, provider, now) : 0);
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

const byRemaining = <T extends { remainingMs: number }>(a: T, b: T): number => a.remainingMs - b.remainingMs;

/** Every transient item still active at `now`: cooling connections, blocked providers, locked models. */
export function coolingItems(snapshot: CooldownSnapshot, now: number): CoolingItem[] {
  const connections: CoolingItem[] = snapshot.connections
    .map((row) => ({
      kind: 'connection' as const,
      name: row.name,
      remainingMs: connectionCoolingMs(snapshot, row, now),
      reason: row.lastErrorType,
    }))
    .filter((item) => item.remainingMs > 0)
    .sort(byRemaining);
  const providers: CoolingItem[] = snapshot.providers
    .map((row) => ({
      kind: 'provider' as const,
      provider: row.provider,
      label: row.origin ? `${row.kind} · ${hostOf(row.origin)}` : row.kind,
      remainingMs: providerBlockedMs(snapshot, row, now),
      reason: row.state === 'OPEN' || row.state === 'HALF_OPEN' ? ('circuit_open' as const) : ('window_gate' as const),
    }))
    .filter((item) => item.remainingMs > 0)
    .sort(byRemaining);
  const models: CoolingItem[] = snapshot.models
    .map((row) => ({
      kind: 'model' as const,
      key: row.key,
      connection: row.connection,
      model: row.model,
      remainingMs: Math.max(0, row.expiresAt - now),
      reason: row.reason,
    }))
    .filter((item) => item.remainingMs > 0)
    .sort(byRemaining);
  return [...connections, ...providers, ...models];
}

/** Connections in a terminal state, by name; never counted as clearable. */
export function terminalItems(snapshot: CooldownSnapshot): TerminalItem[] {
  const items: TerminalItem[] = [];
  for (const row of snapshot.connections) {
    if (isTerminalRow(row)) items.push({ name: row.name, status: row.testStatus, lastError: row.lastError });
  }
  return items.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The snapshot without connections the user switched off (and their model lockouts): routing never
 * picks them, so they neither keep the tray out of "blocked" nor need clearing.
 */
export function withoutDisabled(snapshot: CooldownSnapshot, disabledIds: ReadonlySet<string>): CooldownSnapshot {
  if (disabledIds.size === 0) return snapshot;
  return {
    ...snapshot,
    connections: snapshot.connections.filter((c) => !disabledIds.has(c.id)),
    models: snapshot.models.filter((m) => !disabledIds.has(m.connectionId)),
  };
}

/** "01:23" under an hour, "1:02:03" past it; rounds up so "00:00" never shows while still cooling. */
export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n: number): string => String(n).padStart(2, '0');
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}
