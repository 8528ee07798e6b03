import type { BreakerState } from './breaker-state';

/**
 * Merges a provider breaker another instance opened (issue 24 §4): an OPEN breaker spreads (the
 * provider is failing for everyone), the later `openedAt` wins; anything else stays local (each
 * instance closes its own breaker through its own probes). Returns `local` itself when nothing changes.
 * A remote HALF_OPEN's permits are not taken over: probes belong to the instance that sends them.
 */
export function mergeBreaker(local: BreakerState | undefined, remote: BreakerState): BreakerState | undefined {
  if (remote.kind !== 'OPEN') return local;
  if (local?.kind === 'OPEN' && local.openedAt >= remote.openedAt) return local;
  return remote;
}
