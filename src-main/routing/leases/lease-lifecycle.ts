import type { LeaseEndReason } from '../../../src-shared/domain/lease';
import {
  capacityUnavailable,
  holds,
  liveLeaseOn,
  refuse,
  type ActiveLease,
  type EndedLease,
  type LeaseBook,
  type LeaseCapacityUnavailable,
  type LeaseRefusal,
} from './lease-book';
import { matchOwner, type LeaseClaim } from './lease-owner-match';

export interface AcquireInput {
  ownerHash: string;
  keyId: string;
  /** Connections of the key's `allowedConnections` that normal routing finds eligible now, preferred first. */
  candidates: readonly string[];
  ttlMs: number;
}

export type AcquireDecision =
  | { kind: 'acquired'; lease: ActiveLease }
  | { kind: 'reused'; lease: ActiveLease }
  | { kind: 'moved'; from: string; lease: ActiveLease }
  | { kind: 'no_eligible_connection' }
  | LeaseCapacityUnavailable
  | LeaseRefusal;

export type RenewDecision = { kind: 'renewed'; lease: ActiveLease } | LeaseRefusal;
export type ReleaseDecision = { kind: 'released'; lease: EndedLease; already: boolean } | LeaseRefusal;

export interface Step<D> {
  book: LeaseBook;
  decision: D;
}

function withActive(book: LeaseBook, lease: ActiveLease): LeaseBook {
  const ended = { ...book.ended };
  delete ended[lease.ownerHash];
  return { active: { ...book.active, [lease.ownerHash]: lease }, ended };
}

function withEnded(book: LeaseBook, lease: EndedLease): LeaseBook {
  const active = { ...book.active };
  delete active[lease.ownerHash];
  return { active, ended: { ...book.ended, [lease.ownerHash]: lease } };
}

function end(lease: ActiveLease, reason: LeaseEndReason, at: number): EndedLease {
  return { ...lease, kind: 'ended', endedAt: at, reason };
}

/** Lazy expiry: every active lease past its expiry ends as `ttl_expired`; the same book when none did. */
export function expireLeases(book: LeaseBook, now: number): LeaseBook {
  let next = book;
  for (const lease of Object.values(book.active)) {
    if (!holds(lease, now)) next = withEnded(next, end(lease, 'ttl_expired', lease.expiresAt));
  }
  return next;
}

/** The first candidate no other owner holds, or the live leases that block every candidate. */
function pickFree(book: LeaseBook, candidates: readonly string[], ownerHash: string, now: number) {
  const blocking: ActiveLease[] = [];
  for (const connectionId of candidates) {
    const held = liveLeaseOn(book, connectionId, now);
    if (!held || held.ownerHash === ownerHash) return { free: connectionId, blocking };
    blocking.push(held);
  }
  return { free: null, blocking };
}

/**
 * acquire (LEASE-1, LEASE-2): an owner already holding a candidate renews it (`reused`); holding a
 * connection that is no longer a candidate, it moves with the same generation (LEASE-9). Otherwise
 * the first free candidate gets generation = the owner's last + 1. No candidate at all is an
 * ordinary routing outcome (LEASE-12); candidates all held by others are contention (LEASE-11).
 */
export function acquireLease(book: LeaseBook, input: AcquireInput, now: number): Step<AcquireDecision> {
  const current = expireLeases(book, now);
  const held = current.active[input.ownerHash];
  const previous = held ?? current.ended[input.ownerHash];
  if (previous && previous.keyId !== input.keyId) {
    return { book: current, decision: refuse('lease_key_mismatch', 'This lease owner belongs to another local key') };
  }
  const expiresAt = now + input.ttlMs;
  if (held && input.candidates.includes(held.connectionId)) {
    const lease: ActiveLease = { ...held, renewedAt: now, expiresAt };
    return { book: withActive(current, lease), decision: { kind: 'reused', lease } };
  }
  if (input.candidates.length === 0) return { book: current, decision: { kind: 'no_eligible_connection' } };
  const { free, blocking } = pickFree(current, input.candidates, input.ownerHash, now);
  if (free === null) return { book: current, decision: capacityUnavailable(blocking, input.candidates.length, now) };
  if (held) {
    const lease: ActiveLease = { ...held, connectionId: free, renewedAt: now, expiresAt };
    return { book: withActive(current, lease), decision: { kind: 'moved', from: held.connectionId, lease } };
  }
  const lease: ActiveLease = {
    kind: 'active',
    ownerHash: input.ownerHash,
    keyId: input.keyId,
    connectionId: free,
    generation: (previous?.generation ?? 0) + 1,
    acquiredAt: now,
    renewedAt: now,
    expiresAt,
  };
  return { book: withActive(current, lease), decision: { kind: 'acquired', lease } };
}

/** renew: only the owner's key, with the current generation, while the lease still holds (LEASE-6). */
export function renewLease(book: LeaseBook, claim: LeaseClaim, ttlMs: number, now: number): Step<RenewDecision> {
  const current = expireLeases(book, now);
  const match = matchOwner(current, claim, now);
  if (match.kind === 'refused') return { book: current, decision: match };
  if (match.kind === 'ended') {
    return { book: current, decision: refuse('lease_not_held', 'The lease has ended; acquire a new one') };
  }
  const lease: ActiveLease = { ...match.lease, renewedAt: now, expiresAt: now + ttlMs };
  return { book: withActive(current, lease), decision: { kind: 'renewed', lease } };
}

/** release: ends the owner's lease; releasing an already ended generation again is a no-op answer. */
export function releaseLease(
  book: LeaseBook,
  claim: LeaseClaim,
  reason: 'owner_exit' | 'client_cancelled',
  now: number,
): Step<ReleaseDecision> {
  const current = expireLeases(book, now);
  const match = matchOwner(current, claim, now);
  if (match.kind === 'refused') return { book: current, decision: match };
  if (match.kind === 'ended') {
    const ended = match.lease.kind === 'ended' ? match.lease : end(match.lease, 'ttl_expired', match.lease.expiresAt);
    return { book: current, decision: { kind: 'released', lease: ended, already: true } };
  }
  const lease = end(match.lease, reason, now);
  return { book: withEnded(current, lease), decision: { kind: 'released', lease, already: false } };
}

/** Ends the leases of a revoked key, a removed connection, or all of them (the dashboard's clear). */
export function endLeasesWhere(
  book: LeaseBook,
  match: { keyId: string } | { connectionId: string } | 'all',
  reason: LeaseEndReason,
  now: number,
): LeaseBook {
  const current = expireLeases(book, now);
  let next = current;
  for (const lease of Object.values(current.active)) {
    const hit =
      match === 'all' || ('keyId' in match ? lease.keyId === match.keyId : lease.connectionId === match.connectionId);
    if (hit) next = withEnded(next, end(lease, reason, now));
  }
  return next;
}

/** Forgets ended leases older than `keepMs`; an owner coming back after that starts at generation 1. */
export function pruneEndedLeases(book: LeaseBook, now: number, keepMs: number): LeaseBook {
  const stale = Object.values(book.ended).filter((lease) => lease.endedAt <= now - keepMs);
  if (stale.length === 0) return book;
  const ended = { ...book.ended };
  for (const lease of stale) delete ended[lease.ownerHash];
  return { active: book.active, ended };
}
