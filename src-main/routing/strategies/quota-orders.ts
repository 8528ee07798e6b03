import { sortBy, type CandidateFacts } from './facts';

/** 0: quota known and left, 1: unknown, 2: known exhausted. */
const group = (f: CandidateFacts) => (f.quota.remaining === null ? 1 : f.quota.remaining > 0 ? 0 : 2);

/** `fill-first`: the listed order, drained one target at a time; a target reported exhausted goes last. */
export const orderFillFirst = (facts: readonly CandidateFacts[]) =>
  sortBy(facts, (a, b) => (a.quota.remaining === 0 ? 1 : 0) - (b.quota.remaining === 0 ? 1 : 0));

/** `leeway`: the most unspent quota first; unknown after every known one with quota left, exhausted last. */
export const orderLeeway = (facts: readonly CandidateFacts[]) =>
  sortBy(facts, (a, b) => group(a) - group(b) || (b.quota.remaining ?? 0) - (a.quota.remaining ?? 0));

/** `reset-aware` (ROUTE-2): the quota that resets first is spent first; unknown resets after, exhausted last. */
export const orderResetAware = (facts: readonly CandidateFacts[]) =>
  sortBy(facts, (a, b) => {
    const ga = group(a) === 2 ? 2 : a.quota.resetAt === null ? 1 : 0;
    const gb = group(b) === 2 ? 2 : b.quota.resetAt === null ? 1 : 0;
    return ga - gb || (a.quota.resetAt ?? 0) - (b.quota.resetAt ?? 0);
  });

/** Unspent fraction lost per hour if unused until the reset (the "use it or lose it" rate). */
function expiringRate(f: CandidateFacts, now: number): number | null {
  const { remaining, resetAt } = f.quota;
  if (remaining === null || resetAt === null || remaining === 0) return null;
  return remaining / (Math.max(60_000, resetAt - now) / 3_600_000);
}

/**
 * `reset-window` (ROUTE-2): the target whose unspent quota would be lost fastest at its reset
 * (remaining ÷ time to reset) first; unknown after, exhausted last.
 */
export function orderResetWindow(facts: readonly CandidateFacts[], now: number): CandidateFacts[] {
  return sortBy(facts, (a, b) => {
    const ra = expiringRate(a, now);
    const rb = expiringRate(b, now);
    const ga = group(a) === 2 ? 2 : ra === null ? 1 : 0;
    const gb = group(b) === 2 ? 2 : rb === null ? 1 : 0;
    return ga - gb || (rb ?? 0) - (ra ?? 0);
  });
}
