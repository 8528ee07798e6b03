import { DEFAULT_LEASE_TTL_MS } from '../../../src-shared/domain/lease';
import { EMPTY_LEASE_BOOK, type ActiveLease, type LeaseBook } from './lease-book';
import { acquireLease } from './lease-lifecycle';

/** Shared numbers for the lease tests: time is a number, owners are fixed hashes. */
export const T0 = 1_700_000_000_000;
export const TTL = DEFAULT_LEASE_TTL_MS;
export const OWNER_A = 'a'.repeat(64);
export const OWNER_B = 'b'.repeat(64);
export const OWNER_C = 'c'.repeat(64);

/** A book where `owner` (key `keyId`) holds the first free connection of `candidates`. */
export function bookWith(
  owner: string,
  candidates: readonly string[],
  opts: { keyId?: string; book?: LeaseBook; now?: number; ttlMs?: number } = {},
): { book: LeaseBook; lease: ActiveLease } {
  const step = acquireLease(
    opts.book ?? EMPTY_LEASE_BOOK,
    { ownerHash: owner, keyId: opts.keyId ?? 'k1', candidates, ttlMs: opts.ttlMs ?? TTL },
    opts.now ?? T0,
  );
  if (step.decision.kind !== 'acquired') throw new Error(`expected acquired, got ${step.decision.kind}`);
  return { book: step.book, lease: step.decision.lease };
}
