import { standingKindOf, type Pin } from './pin';

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
  const standing = standingKindOf(pin, ttlMs, now);
  if (standing === 'disabled') return { kind: 'unpinned', reason: 'disabled', order: candidates };
  if (standing === 'none' || !pin) return { kind: 'unpinned', reason: 'no_pin', order: candidates };
  if (standing === 'expired') return { kind: 'unpinned', reason: 'expired', order: candidates };
  const pinned = pin.connectionId;
  if (!includesConnection(candidates, connectionOf, pinned)) {
    return { kind: 'unpinned', reason: 'pinned_unavailable', order: candidates };
  }
  if (alreadyFirst(candidates, connectionOf, pinned))
    return { kind: 'pinned', connectionId: pinned, order: candidates };
  // A combo may list one connection twice (two models): keep all of its entries, in their order.
  // Sized once (a pushed-to array over-allocates its backing store), pinned entries first.
  const order = new Array<T>(candidates.length);
  let at = 0;
  for (const c of candidates) if (connectionOf(c) === pinned) order[at++] = c;
  for (const c of candidates) if (connectionOf(c) !== pinned) order[at++] = c;
  return { kind: 'pinned', connectionId: pinned, order };
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

function includesConnection<T>(candidates: readonly T[], connectionOf: (candidate: T) => string, id: string): boolean {
  for (const candidate of candidates) if (connectionOf(candidate) === id) return true;
  return false;
}
