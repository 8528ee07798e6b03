import { NO_HEALTH, NO_USAGE, type HealthFacts, type UsageFacts } from './facts';

/** Weight of the newest sample in the latency EMA. */
export const LATENCY_ALPHA = 0.3;

export function servedHealth(h: HealthFacts = NO_HEALTH, ttfbMs: number | null): HealthFacts {
  const latencyEmaMs =
    ttfbMs === null
      ? h.latencyEmaMs
      : h.latencyEmaMs === null
        ? ttfbMs
        : h.latencyEmaMs + LATENCY_ALPHA * (ttfbMs - h.latencyEmaMs);
  return {
    successes: h.successes + 1,
    failures: h.failures,
    consecutiveFailures: 0,
    lastErrorStatus: null,
    latencyEmaMs,
  };
}

/** Failures that say something about the target (a 400 is the client's request, not the upstream's health). */
export function countsAsFailure(status: number): boolean {
  return status === 401 || status === 402 || status === 403 || status === 408 || status === 429 || status >= 500;
}

export function failedHealth(h: HealthFacts = NO_HEALTH, status: number): HealthFacts {
  return { ...h, failures: h.failures + 1, consecutiveFailures: h.consecutiveFailures + 1, lastErrorStatus: status };
}

export function pickedUsage(u: UsageFacts = NO_USAGE, now: number, sameAsLast: boolean): UsageFacts {
  return { picks: u.picks + 1, lastPickedAt: now, consecutive: sameAsLast ? u.consecutive + 1 : 1 };
}
