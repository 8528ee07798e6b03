import { z } from 'zod';

const count = z.number().int().nonnegative();
const instant = z.number().finite();

/** Fields every state carries: the failure tally, the last provider failure, and why we are here. */
const common = {
  failureCount: count,
  lastFailureAt: instant.nullable(),
  /** A sentence for the UI and logs, e.g. "8 provider failures reached the open threshold of 8". */
  reason: z.string(),
};

/**
 * One provider's breaker as plain JSON (BRK-1), so it persists as-is and restores through this
 * schema (BRK-7). OPEN counts its window from `openedAt`, which later failures never move (BRK-6);
 * HALF_OPEN lists when each in-flight probe started so concurrent requests cannot all probe.
 */
export const breakerStateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('CLOSED'), ...common }),
  z.object({ kind: z.literal('DEGRADED'), ...common }),
  z.object({ kind: z.literal('OPEN'), ...common, openedAt: instant, openCycles: count }),
  z.object({ kind: z.literal('HALF_OPEN'), ...common, openCycles: count, probeStartedAt: z.array(instant) }),
]);
export type BreakerState = z.infer<typeof breakerStateSchema>;

/** A fresh CLOSED breaker with every counter at zero: the start state and the manual reset (BRK-7). */
export function resetBreaker(reason = 'no provider failures recorded'): BreakerState {
  return { kind: 'CLOSED', failureCount: 0, lastFailureAt: null, reason };
}

/**
 * Turns a persisted row back into a state; anything unreadable starts CLOSED rather than blocking a
 * provider on a corrupt row. Probes in flight died with the old process, so HALF_OPEN gets its permits back.
 */
export function restoreBreakerState(stored: unknown): BreakerState {
  const parsed = breakerStateSchema.safeParse(stored);
  if (!parsed.success) return resetBreaker('stored breaker state was unreadable; starting closed');
  const state = parsed.data;
  return state.kind === 'HALF_OPEN' ? { ...state, probeStartedAt: [] } : state;
}
