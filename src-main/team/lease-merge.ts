import { holds, type ActiveLease, type EndedLease, type Lease, type LeaseBook } from '../routing/leases/lease-book';
import { expireLeases } from '../routing/leases/lease-lifecycle';

/**
 * Merging another instance's lease into the local book (issue 24 §4). Per owner the newer lease
 * wins: a higher generation; at the same generation an ended lease over an active one (ending is
 * final, so a stale "active" never resurrects it), and between two active ones the later renewal
 * (a renew or a LEASE-9 move). Two instances may grant the same connection to two owners within
 * one pub/sub hop; every instance then keeps the earlier acquisition (ties: the lower owner hash)
 * and ends the other as `cleared`, so all converge on one holder.
 */
export interface LeaseMerge {
  book: LeaseBook;
  /** Local leases this merge ended (a conflict lost): to be told to the team. */
  losers: EndedLease[];
}

export function mergeLease(prev: LeaseBook, fact: Lease, now: number): LeaseMerge | null {
  // Lapsed leases end first (as a local acquire does): the stored rows allow one active per connection.
  const book = expireLeases(prev, now);
  const incoming: Lease =
    fact.kind === 'active' && !holds(fact, now)
      ? { ...fact, kind: 'ended', endedAt: fact.expiresAt, reason: 'ttl_expired' }
      : fact;
  const local = book.active[incoming.ownerHash] ?? book.ended[incoming.ownerHash];
  if (local !== undefined && !isNewer(incoming, local)) return book === prev ? null : { book, losers: [] };
  if (incoming.kind === 'ended') return { book: putLease(book, incoming), losers: [] };
  const rivals = Object.values(book.active).filter(
    (lease) =>
      lease.ownerHash !== incoming.ownerHash && lease.connectionId === incoming.connectionId && holds(lease, now),
  );
  if (rivals.some((rival) => firstOf(rival, incoming) === rival)) {
    return { book: putLease(book, endLease(incoming, now)), losers: [] };
  }
  let next = putLease(book, incoming);
  const losers = rivals.map((rival) => endLease(rival, now));
  for (const loser of losers) next = putLease(next, loser);
  return { book: next, losers };
}

function isNewer(incoming: Lease, local: Lease): boolean {
  if (incoming.generation !== local.generation) return incoming.generation > local.generation;
  if (local.kind === 'ended') return false;
  if (incoming.kind === 'ended') return true;
  if (incoming.renewedAt !== local.renewedAt) return incoming.renewedAt > local.renewedAt;
  return incoming.expiresAt > local.expiresAt;
}

/** The lease that took the connection first; ties go to the lower owner hash, the same on every instance. */
function firstOf(a: ActiveLease, b: ActiveLease): ActiveLease {
  if (a.acquiredAt !== b.acquiredAt) return a.acquiredAt < b.acquiredAt ? a : b;
  return a.ownerHash < b.ownerHash ? a : b;
}

function endLease(lease: ActiveLease, now: number): EndedLease {
  return { ...lease, kind: 'ended', endedAt: now, reason: 'cleared' };
}

/** The book with `lease` as its owner's newest (one entry per owner). */
export function putLease(book: LeaseBook, lease: Lease): LeaseBook {
  const active = { ...book.active };
  const ended = { ...book.ended };
  delete active[lease.ownerHash];
  delete ended[lease.ownerHash];
  if (lease.kind === 'active') active[lease.ownerHash] = lease;
  else ended[lease.ownerHash] = lease;
  return { active, ended };
}
