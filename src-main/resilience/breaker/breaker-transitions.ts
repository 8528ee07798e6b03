import { degradationThresholdOf, type BreakerProfileSettings } from './breaker-settings';
import { resetBreaker, type BreakerState } from './breaker-state';
import { effectiveResetMs, refreshBreaker } from './breaker-timing';

/** How a request that did not succeed ended, as the caller classified it. */
export interface BreakerFailure {
  /** True only for provider-level outcomes: 408/500/502/503/504 or a transport failure (BRK-2). */
  countsForBreaker: boolean;
  /** True when canExecute admitted this request as a HALF_OPEN probe. */
  probe?: boolean;
}

/**
 * Gives back a HALF_OPEN probe permit for an outcome that says nothing about the provider
 * (client abort, 401/429 on the probe), so the next request can probe instead of waiting.
 */
export function releaseProbe(state: BreakerState, settings: BreakerProfileSettings, now: number): BreakerState {
  const current = refreshBreaker(state, settings, now);
  if (current.kind !== 'HALF_OPEN' || current.probeStartedAt.length === 0) return current;
  return { ...current, probeStartedAt: current.probeStartedAt.slice(1) };
}

/**
 * Applies one failed request (BRK-4). Non-provider failures never count (BRK-2); failures while
 * OPEN change nothing, so they cannot extend the window (BRK-6); a failed probe reopens with one
 * more open cycle, which lengthens the next window once escalation starts (BRK-5).
 */
export function recordFailure(
  state: BreakerState,
  settings: BreakerProfileSettings,
  failure: BreakerFailure,
  now: number,
): BreakerState {
  if (!failure.countsForBreaker) return failure.probe === true ? releaseProbe(state, settings, now) : state;
  const current = refreshBreaker(state, settings, now);
  const failureCount = current.failureCount + 1;
  switch (current.kind) {
    case 'OPEN':
      return current;
    case 'HALF_OPEN': {
      const openCycles = current.openCycles + 1;
      const blockMs = effectiveResetMs(settings, openCycles);
      const reason = `probe failed (open cycle ${openCycles}); blocking for ${blockMs} ms`;
      return { kind: 'OPEN', failureCount, lastFailureAt: now, openedAt: now, openCycles, reason };
    }
    case 'CLOSED':
    case 'DEGRADED': {
      if (failureCount >= settings.failureThreshold) {
        const reason = `${failureCount} provider failures reached the open threshold of ${settings.failureThreshold}`;
        return { kind: 'OPEN', failureCount, lastFailureAt: now, openedAt: now, openCycles: 0, reason };
      }
      const degradedAt = degradationThresholdOf(settings);
      if (current.kind === 'CLOSED' && failureCount >= degradedAt) {
        const reason = `${failureCount} provider failures reached the degradation threshold of ${degradedAt}`;
        return { kind: 'DEGRADED', failureCount, lastFailureAt: now, reason };
      }
      return { ...current, failureCount, lastFailureAt: now };
    }
  }
}

/**
 * Applies one successful request (BRK-4): HALF_OPEN or OPEN closes with every counter reset;
 * CLOSED/DEGRADED recover gradually, one failure forgiven per success, and DEGRADED closes
 * once the count is at or below the degradation threshold.
 */
export function recordSuccess(state: BreakerState, settings: BreakerProfileSettings, now: number): BreakerState {
  const current = refreshBreaker(state, settings, now);
  switch (current.kind) {
    case 'HALF_OPEN':
      return resetBreaker('probe succeeded; provider recovered');
    case 'OPEN':
      return resetBreaker('a request succeeded while open; provider recovered');
    case 'CLOSED':
      return current.failureCount === 0 ? current : { ...current, failureCount: current.failureCount - 1 };
    case 'DEGRADED': {
      const failureCount = Math.max(0, current.failureCount - 1);
      const degradedAt = degradationThresholdOf(settings);
      if (failureCount > degradedAt) return { ...current, failureCount };
      const reason = `failures fell to ${failureCount}, at or below the degradation threshold of ${degradedAt}`;
      return { kind: 'CLOSED', failureCount, lastFailureAt: current.lastFailureAt, reason };
    }
  }
}
