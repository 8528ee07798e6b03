import type { BreakerStateKind } from '../../../src-shared/domain/cooldown';
import type { BreakerProfileSettings } from './breaker-settings';
import type { BreakerState } from './breaker-state';
import { effectiveResetMs, refreshBreaker } from './breaker-timing';

/** Whether a request may go to the provider now; `state` is the refreshed state to keep. */
export type BreakerDecision =
  | { allowed: true; probe: boolean; state: BreakerState }
  | { allowed: false; reason: 'circuit_open'; retryAfterMs: number; detail: string; state: BreakerState };

/** The refreshed view the health endpoint and cooldown panels show (BRK-8, PROV-9). */
export interface BreakerStatus {
  kind: BreakerStateKind;
  failureCount: number;
  /** Milliseconds until a request would be admitted; null when one would be admitted now. */
  retryAfterMs: number | null;
  openCycles: number;
  probesInFlight: number;
  lastFailureAt: number | null;
  reason: string;
}

/** Time until a blocked breaker admits something: its window's end, or the oldest probe's lapse. */
function blockedForMs(state: BreakerState, settings: BreakerProfileSettings, now: number): number | null {
  if (state.kind === 'OPEN') return Math.max(0, state.openedAt + effectiveResetMs(settings, state.openCycles) - now);
  if (state.kind !== 'HALF_OPEN' || state.probeStartedAt.length < settings.halfOpenProbes) return null;
  const oldest = Math.min(...state.probeStartedAt);
  return Math.max(0, oldest + effectiveResetMs(settings, state.openCycles) - now);
}

/**
 * Admits or refuses one request (BRK-1, BRK-6). HALF_OPEN admits up to halfOpenProbes probes and
 * counts each in the returned state, so callers must keep that state before the next call.
 */
export function canExecute(state: BreakerState, settings: BreakerProfileSettings, now: number): BreakerDecision {
  const current = refreshBreaker(state, settings, now);
  const waitMs = blockedForMs(current, settings, now);
  if (waitMs !== null) {
    const detail =
      current.kind === 'HALF_OPEN'
        ? `circuit half-open: ${current.probeStartedAt.length} probe(s) already in flight`
        : `circuit open: ${current.reason}`;
    return { allowed: false, reason: 'circuit_open', retryAfterMs: waitMs, detail, state: current };
  }
  if (current.kind !== 'HALF_OPEN') return { allowed: true, probe: false, state: current };
  return { allowed: true, probe: true, state: { ...current, probeStartedAt: [...current.probeStartedAt, now] } };
}

/** Reads a breaker for snapshots without admitting anything; an expired OPEN shows as HALF_OPEN. */
export function statusOf(state: BreakerState, settings: BreakerProfileSettings, now: number): BreakerStatus {
  const current = refreshBreaker(state, settings, now);
  const cycles = current.kind === 'OPEN' || current.kind === 'HALF_OPEN' ? current.openCycles : 0;
  return {
    kind: current.kind,
    failureCount: current.failureCount,
    retryAfterMs: blockedForMs(current, settings, now),
    openCycles: cycles,
    probesInFlight: current.kind === 'HALF_OPEN' ? current.probeStartedAt.length : 0,
    lastFailureAt: current.lastFailureAt,
    reason: current.reason,
  };
}
