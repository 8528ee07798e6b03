import type {
  ConnectionCooldownRow,
  CooldownSnapshot,
  ModelLockoutRow,
  ProviderBreakerRow,
} from '../../../src-shared/domain/cooldown';

/** When a connection's cooldown ends on the core's clock; null when it is not cooling. */
export function connectionDeadline(row: ConnectionCooldownRow, snapshotNow: number): number | null {
  if (row.retryAfterMs !== null) return snapshotNow + row.retryAfterMs;
  return row.rateLimitedUntil;
}

/** A connection worth a row: in a terminal state, or cooling down right now. */
export function isConnectionBlocked(row: ConnectionCooldownRow, snapshotNow: number, now: number): boolean {
  if (row.terminal) return true;
  const deadline = connectionDeadline(row, snapshotNow);
  return deadline !== null && deadline > now;
}

/** The later of the breaker's and the gate's retry-after, on the core's clock. */
export function providerDeadline(row: ProviderBreakerRow, snapshotNow: number): number | null {
  const waits = [row.retryAfterMs, row.gate?.cooling ? row.gate.retryAfterMs : null].filter(
    (ms): ms is number => ms !== null && ms > 0,
  );
  return waits.length === 0 ? null : snapshotNow + Math.max(...waits);
}

/** A provider worth a row: its breaker is not plainly healthy, or its gate counted failures. */
export function isProviderNotable(row: ProviderBreakerRow): boolean {
  if (row.state !== 'CLOSED' || row.failureCount > 0) return true;
  return row.gate !== null && (row.gate.cooling || row.gate.failuresInWindow > 0);
}

export function isLockoutActive(row: ModelLockoutRow, now: number): boolean {
  return row.expiresAt > now;
}

/** What the panels list at `now` (core clock). */
export interface ActiveCooldowns {
  connections: ConnectionCooldownRow[];
  providers: ProviderBreakerRow[];
  models: ModelLockoutRow[];
}

export function activeCooldowns(snapshot: CooldownSnapshot, now: number): ActiveCooldowns {
  return {
    connections: snapshot.connections
      .filter((c) => isConnectionBlocked(c, snapshot.now, now))
      .sort((a, b) => Number(b.terminal) - Number(a.terminal) || a.name.localeCompare(b.name)),
    providers: snapshot.providers.filter(isProviderNotable),
    models: snapshot.models.filter((m) => isLockoutActive(m, now)).sort((a, b) => a.expiresAt - b.expiresAt),
  };
}

/** Items "Clear all" would clear: everything listed except terminal connections (COOL-10). */
export function countClearable(active: ActiveCooldowns): number {
  return active.connections.filter((c) => !c.terminal).length + active.providers.length + active.models.length;
}

/** Every future deadline in the snapshot, so the view can re-read the core once one passes. */
export function deadlinesOf(snapshot: CooldownSnapshot): number[] {
  const all = [
    ...snapshot.connections.map((c) => (c.terminal ? null : connectionDeadline(c, snapshot.now))),
    ...snapshot.providers.map((p) => providerDeadline(p, snapshot.now)),
    ...snapshot.models.map((m) => m.expiresAt),
  ];
  return all.filter((t): t is number => t !== null && t > snapshot.now);
}

/** Wall-clock time of a core timestamp, shown beside a countdown. */
export function formatClock(ts: number): string {
  return new Date(ts).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
