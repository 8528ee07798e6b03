import { isFailoverStatus, isUnsupported } from './failover-policy';
import type { ResiliencePort } from './resilience-port';

/** Failover without memory: the policy the proxy had before the engines, kept for tests and as a floor. */
export const plainResilience: ResiliencePort = {
  screen: (targets) => ({ runnable: [...targets], excluded: [] }),
  admit: () => ({ ok: true, admission: { probe: false, release: () => undefined } }),
  learnFailure: (_target, _admission, operation, outcome) =>
    outcome.kind === 'transport'
      ? { shouldFailover: true, status: null, retryAfterMs: null, reason: outcome.failure }
      : {
          shouldFailover: isFailoverStatus(outcome.status, operation) || isUnsupported(outcome.status, operation),
          status: outcome.status,
          retryAfterMs: null,
          reason: isUnsupported(outcome.status, operation) ? 'unsupported' : 'upstream_status',
        },
  learnSuccess: () => undefined,
};
