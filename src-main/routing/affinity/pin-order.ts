import { standingOf, type Pin } from './pin';

/** What the pin proposed for one request; `order` is always a subset of the candidates given. */
export type PinProposal<T> =
  | { kind: 'pinned'; connectionId: string; order: readonly T[] }
  | { kind: 'unpinned'; reason: 'disabled' | 'no_pin' | 'expired' | 'pinned_unavailable'; order: readonly T[] };

/**
 * Puts the pinned connection's candidates first (AFF-2). Soft by construction (AFF-6): it only
 * reorders the candidates the plan already filtered (cooldowns, breakers, lockouts, leases, quota),
 * so a pinned connection that was excluded is simply absent and the order stays as it was.
 * Returns the same array when nothing moves, so an unpinned request allocates nothing.
 */
export function orderByPin<T>(
  candidates: readonly T[],
  connectionOf: (candidate: T) => string,
  pin: Pin | undefined,
  ttlMs: number,
  now: number,
): PinProposal<T> {
  const standing = standingOf(pin, ttlMs, now);
  if (standing.kind === 'disabled') return { kind: 'unpinned', reason: 'disabled', order: candidates };
  if (standing.kind === 'none') return { kind: 'unpinned', reason: 'no_pin', order: candidates };
  if (standing.kind === 'expired') return { kind: 'unpinned', reason: 'expired', order: candidates };
  const pinned = standing.pin.connectionId;
  if (!candidates.some((candidate) => connectionOf(candidate) === pinned)) {
    return { kind: 'unpinned', reason: 'pinned_unavailable', order: candidates };
  }
  if (alreadyFirst(candidates, connectionOf, pinned))
    return { kind: 'pinned', connectionId: pinned, order: candidates };
  // A combo may list one connection twice (two models): keep all of its entries, in their order.
  const head = candidates.filter((c) => connectionOf(c) === pinned);
  const tail = candidates.filter((c) => connectionOf(c) !== pinned);
  return { kind: 'pinned', connectionId: pinned, order: head.concat(tail) };
}

/** True when every entry of `pinned` comes before every other entry (nothing to move). */
function alreadyFirst<T>(candidates: readonly T[], connectionOf: (candidate: T) => string, pinned: string): boolean {
  let seenOther = false;
  for (const candidate of candidates) {
    if (connectionOf(candidate) !== pinned) seenOther = true;
    else if (seenOther) return false;
  }
  return true;
}
