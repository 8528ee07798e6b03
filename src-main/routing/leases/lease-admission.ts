import {
  capacityUnavailable,
  holds,
  liveLeaseOn,
  refuse,
  type ActiveLease,
  type LeaseBook,
  type LeaseCapacityUnavailable,
  type LeaseRefusal,
} from './lease-book';
import { acquireLease } from './lease-lifecycle';
import { matchOwner, type LeaseClaim } from './lease-owner-match';

/** What the lease gate lets through; `allowed` is always a subsequence of the candidates given. */
export type LeaseAdmission<T> =
  | { kind: 'free'; allowed: readonly T[] }
  | { kind: 'held'; lease: ActiveLease; allowed: readonly T[] }
  | { kind: 'moved'; from: string; lease: ActiveLease; allowed: readonly T[] }
  | { kind: 'no_eligible_connection' }
  | LeaseCapacityUnavailable
  | LeaseRefusal;

/**
 * The admit stage's lease gate over candidates normal routing already found eligible. Without a
 * claim: drop connections other owners hold (LEASE-1). With one: only the leased connection, or
 * when normal rules excluded it, the same generation moves to the first free candidate (LEASE-9).
 * Every candidate held by others is contention (429, LEASE-11); no candidate at all is an ordinary
 * routing outcome the caller answers as before (LEASE-12). The book changes only on a move.
 */
export function admitLeases<T>(
  book: LeaseBook,
  candidates: readonly T[],
  connectionOf: (candidate: T) => string,
  claim: LeaseClaim | null,
  now: number,
): { book: LeaseBook; decision: LeaseAdmission<T> } {
  if (candidates.length === 0) return { book, decision: { kind: 'no_eligible_connection' } };
  if (claim) return admitHolder(book, candidates, connectionOf, claim, now);
  if (!hasLiveLease(book, now)) return { book, decision: { kind: 'free', allowed: candidates } };
  const blocking: ActiveLease[] = [];
  const allowed = candidates.filter((candidate) => {
    const held = liveLeaseOn(book, connectionOf(candidate), now);
    if (held) blocking.push(held);
    return !held;
  });
  if (allowed.length === 0) return { book, decision: capacityUnavailable(blocking, candidates.length, now) };
  return { book, decision: { kind: 'free', allowed: allowed.length === candidates.length ? candidates : allowed } };
}

function hasLiveLease(book: LeaseBook, now: number): boolean {
  for (const owner in book.active) {
    const lease = book.active[owner];
    if (lease && holds(lease, now)) return true;
  }
  return false;
}

function admitHolder<T>(
  book: LeaseBook,
  candidates: readonly T[],
  connectionOf: (candidate: T) => string,
  claim: LeaseClaim,
  now: number,
): { book: LeaseBook; decision: LeaseAdmission<T> } {
  const match = matchOwner(book, claim, now);
  if (match.kind === 'refused') return { book, decision: match };
  if (match.kind === 'ended')
    return { book, decision: refuse('lease_not_held', 'The lease has ended; acquire a new one') };
  const on = (connectionId: string): readonly T[] => candidates.filter((c) => connectionOf(c) === connectionId);
  const leased = on(match.lease.connectionId);
  if (leased.length > 0) return { book, decision: { kind: 'held', lease: match.lease, allowed: leased } };
  // Keep the lease's own TTL on a move: the owner renews on its own schedule.
  const ttlMs = match.lease.expiresAt - now;
  const unique = [...new Set(candidates.map(connectionOf))];
  const step = acquireLease(book, { ownerHash: claim.ownerHash, keyId: claim.keyId, candidates: unique, ttlMs }, now);
  const decision = step.decision;
  switch (decision.kind) {
    case 'moved':
      return {
        book: step.book,
        decision: {
          kind: 'moved',
          from: decision.from,
          lease: decision.lease,
          allowed: on(decision.lease.connectionId),
        },
      };
    case 'capacity_unavailable':
    case 'no_eligible_connection':
    case 'refused':
      return { book, decision };
    case 'acquired':
    case 'reused':
      // Unreachable with a held lease whose connection is not a candidate; refuse rather than guess.
      return { book, decision: refuse('lease_not_held', 'The lease could not be matched to a connection') };
  }
}
