import type { BreakerProfileSettings } from './breaker-settings';
import type { BreakerState } from './breaker-state';

/**
 * Reset timeout after `openCycles` failed probes (BRK-5): the plain timeout up to
 * backoffEscalationCount cycles, then doubling per extra cycle, capped at the multiplier.
 */
export function effectiveResetMs(settings: BreakerProfileSettings, openCycles: number): number {
  const { resetTimeoutMs, backoffEscalationCount, maxBackoffMultiplier } = settings;
  if (openCycles <= backoffEscalationCount) return resetTimeoutMs;
  const escalated = resetTimeoutMs * 2 ** (openCycles - backoffEscalationCount);
  return Math.min(escalated, resetTimeoutMs * maxBackoffMultiplier);
}

/** A start time in the future means the clock moved back; treat it as elapsed so nothing blocks forever. */
export function hasElapsed(startedAt: number, durationMs: number, now: number): boolean {
  return now < startedAt || now - startedAt >= durationMs;
}

/**
 * The lazy-recovery read (BRK-6, PROV-7): an OPEN breaker whose window has passed becomes
 * HALF_OPEN, and probes that never reported within one reset window give their permit back.
 * Every accessor calls this first; nothing decides from the raw stored kind.
 */
export function refreshBreaker(state: BreakerState, settings: BreakerProfileSettings, now: number): BreakerState {
  switch (state.kind) {
    case 'CLOSED':
    case 'DEGRADED':
      return state;
    case 'OPEN': {
      const resetMs = effectiveResetMs(settings, state.openCycles);
      if (!hasElapsed(state.openedAt, resetMs, now)) return state;
      const { failureCount, lastFailureAt, openCycles } = state;
      const reason = `reset timeout of ${resetMs} ms elapsed; admitting up to ${settings.halfOpenProbes} probe(s)`;
      return { kind: 'HALF_OPEN', failureCount, lastFailureAt, openCycles, probeStartedAt: [], reason };
    }
    case 'HALF_OPEN': {
      const resetMs = effectiveResetMs(settings, state.openCycles);
      const live = state.probeStartedAt.filter((startedAt) => !hasElapsed(startedAt, resetMs, now));
      return live.length === state.probeStartedAt.length ? state : { ...state, probeStartedAt: live };
    }
  }
}
