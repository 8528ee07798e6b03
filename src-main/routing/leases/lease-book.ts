import type { LeaseEndReason, LeaseErrorCode } from '../../../src-shared/domain/lease';

/** Fields every lease has. Owners are known only by the SHA-256 hex of their id (LEASE-7). */
interface LeaseFields {
  ownerHash: string;
  keyId: string;
  connectionId: string;
  generation: number;
  acquiredAt: number;
  renewedAt: number;
  expiresAt: number;
}

/** Held until `expiresAt`; past it, it holds nothing and the next operation ends it (lazy expiry). */
export interface ActiveLease extends LeaseFields {
  kind: 'active';
}

/** Kept after it ended so the owner's next generation counts on and a repeated release is idempotent. */
export interface EndedLease extends LeaseFields {
  kind: 'ended';
  endedAt: number;
  reason: LeaseEndReason;
}

export type Lease = ActiveLease | EndedLease;

/**
 * Every owner's newest lease, by owner hash: at most one per owner by construction; the engine keeps
 * at most one active per connection (LEASE-2). Few entries (one per leased connection plus recent
 * history), so scans are cheap; `active` is what requests look at.
 */
export interface LeaseBook {
  readonly active: Readonly<Record<string, ActiveLease>>;
  readonly ended: Readonly<Record<string, EndedLease>>;
}

export const EMPTY_LEASE_BOOK: LeaseBook = { active: {}, ended: {} };

/** A refusal a person can read, with a code from `LEASE_ERROR_STATUS`. */
export interface LeaseRefusal {
  kind: 'refused';
  code: LeaseErrorCode;
  message: string;
}

/** Every free candidate is held by another owner (LEASE-11); retry when the earliest lease ends. */
export interface LeaseCapacityUnavailable {
  kind: 'capacity_unavailable';
  retryAfterMs: number;
  /** `Retry-After` value: whole seconds, at least 1 and at most one hour (bounded, LEASE-11). */
  retryAfterSeconds: number;
  eligibleCount: number;
  freeCount: 0;
}

export function refuse(code: LeaseErrorCode, message: string): LeaseRefusal {
  return { kind: 'refused', code, message };
}

/** True while the lease still holds its connection. */
export function holds(lease: ActiveLease, now: number): boolean {
  return now < lease.expiresAt;
}

/** The live lease on a connection, if any (LEASE-2 keeps it to one). */
export function liveLeaseOn(book: LeaseBook, connectionId: string, now: number): ActiveLease | null {
  // for…in: no array per call, this runs for each candidate of a request while leases exist.
  for (const owner in book.active) {
    const lease = book.active[owner];
    if (lease && lease.connectionId === connectionId && holds(lease, now)) return lease;
  }
  return null;
}

/**
 * LEASE-11: candidates exist but each is held by another owner's live lease; retry after the
 * earliest of those leases expires. `blocking` is never empty when this is called.
 */
export function capacityUnavailable(
  blocking: readonly ActiveLease[],
  eligibleCount: number,
  now: number,
): LeaseCapacityUnavailable {
  const earliest = Math.min(...blocking.map((lease) => lease.expiresAt));
  const retryAfterMs = Math.max(0, earliest - now);
  const retryAfterSeconds = Math.min(3_600, Math.max(1, Math.ceil(retryAfterMs / 1_000)));
  return { kind: 'capacity_unavailable', retryAfterMs, retryAfterSeconds, eligibleCount, freeCount: 0 };
}
