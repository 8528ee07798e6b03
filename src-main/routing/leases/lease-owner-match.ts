import { holds, refuse, type ActiveLease, type EndedLease, type LeaseBook, type LeaseRefusal } from './lease-book';

/** Who presents a lease: the owner (by hash), the generation they hold and the authenticated key. */
export interface LeaseClaim {
  ownerHash: string;
  generation: number;
  keyId: string;
}

export type OwnerMatch =
  { kind: 'held'; lease: ActiveLease } | { kind: 'ended'; lease: EndedLease | ActiveLease } | LeaseRefusal;

/**
 * Matches a claim against the owner's newest lease: the key first (LEASE-8; another key learns
 * nothing about the generation), then the generation (LEASE-6), then whether it still holds.
 * A lapsed active lease counts as ended, so read-only checks need no expiry pass.
 */
export function matchOwner(book: LeaseBook, claim: LeaseClaim, now: number): OwnerMatch {
  const lease = book.active[claim.ownerHash] ?? book.ended[claim.ownerHash];
  if (!lease) return refuse('lease_not_held', 'No lease is held by this owner; acquire one first');
  if (lease.keyId !== claim.keyId) return refuse('lease_key_mismatch', 'This lease belongs to another local key');
  if (lease.generation !== claim.generation) {
    return refuse(
      'lease_generation_stale',
      `Lease generation ${claim.generation} is stale; the current one is ${lease.generation}`,
    );
  }
  if (lease.kind === 'active' && holds(lease, now)) return { kind: 'held', lease };
  return { kind: 'ended', lease };
}
