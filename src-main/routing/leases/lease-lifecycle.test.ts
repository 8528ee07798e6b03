import { describe, expect, it } from 'vitest';
import { EMPTY_LEASE_BOOK } from './lease-book';
import { bookWith, OWNER_A, OWNER_B, OWNER_C, T0, TTL } from './lease-fixtures.testkit';
import {
  acquireLease,
  endLeasesWhere,
  expireLeases,
  pruneEndedLeases,
  releaseLease,
  renewLease,
} from './lease-lifecycle';

const claimA = (generation: number, keyId = 'k1') => ({ ownerHash: OWNER_A, generation, keyId });

describe('lease lifecycle', () => {
  it('LEASE-1: acquire gives the owner the first free candidate, generation 1, expiring after the TTL', () => {
    const { lease } = bookWith(OWNER_A, ['c1', 'c2']);
    expect(lease).toEqual({
      kind: 'active',
      ownerHash: OWNER_A,
      keyId: 'k1',
      connectionId: 'c1',
      generation: 1,
      acquiredAt: T0,
      renewedAt: T0,
      expiresAt: T0 + TTL,
    });
  });

  it('LEASE-2: at most one active lease per connection: a second owner gets the next free connection', () => {
    const first = bookWith(OWNER_A, ['c1', 'c2']);
    const second = bookWith(OWNER_B, ['c1', 'c2'], { book: first.book, keyId: 'k2' });
    expect(second.lease.connectionId).toBe('c2');
    expect(Object.keys(second.book.active).sort()).toEqual([OWNER_A, OWNER_B]);
  });

  it('LEASE-2: at most one active lease per owner: acquiring again renews the same lease, same generation', () => {
    const { book } = bookWith(OWNER_A, ['c1', 'c2']);
    const again = acquireLease(
      book,
      { ownerHash: OWNER_A, keyId: 'k1', candidates: ['c2', 'c1'], ttlMs: TTL },
      T0 + 10_000,
    );
    expect(again.decision).toMatchObject({
      kind: 'reused',
      lease: { connectionId: 'c1', generation: 1, expiresAt: T0 + 10_000 + TTL },
    });
    expect(Object.keys(again.book.active)).toEqual([OWNER_A]);
  });

  it('LEASE-11: when every candidate is held by another owner, acquire is contention with Retry-After from the earliest expiry', () => {
    const a = bookWith(OWNER_A, ['c1'], { ttlMs: 90_000 });
    const b = bookWith(OWNER_B, ['c2'], { book: a.book, keyId: 'k2', ttlMs: 30_500 });
    const c = acquireLease(
      b.book,
      { ownerHash: OWNER_C, keyId: 'k3', candidates: ['c1', 'c2'], ttlMs: TTL },
      T0 + 10_000,
    );
    expect(c.decision).toEqual({
      kind: 'capacity_unavailable',
      retryAfterMs: 20_500,
      retryAfterSeconds: 21,
      eligibleCount: 2,
      freeCount: 0,
    });
    expect(c.book).toBe(b.book);
  });

  it('LEASE-12: with no eligible connection at all, acquire is an ordinary routing outcome, not contention', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    const out = acquireLease(book, { ownerHash: OWNER_B, keyId: 'k2', candidates: [], ttlMs: TTL }, T0);
    expect(out.decision).toEqual({ kind: 'no_eligible_connection' });
  });

  it('LEASE-6: renew with the current generation extends the lease from now', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    const out = renewLease(book, claimA(1), 60_000, T0 + 100_000);
    expect(out.decision).toMatchObject({
      kind: 'renewed',
      lease: { generation: 1, renewedAt: T0 + 100_000, expiresAt: T0 + 160_000 },
    });
  });

  it('LEASE-6: renew with a stale generation or from another key is refused and changes nothing', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    expect(renewLease(book, claimA(2), TTL, T0 + 1).decision).toMatchObject({
      kind: 'refused',
      code: 'lease_generation_stale',
    });
    expect(renewLease(book, claimA(1, 'k2'), TTL, T0 + 1).decision).toMatchObject({
      kind: 'refused',
      code: 'lease_key_mismatch',
    });
    expect(renewLease(book, { ...claimA(1), ownerHash: OWNER_B }, TTL, T0 + 1).decision).toMatchObject({
      code: 'lease_not_held',
    });
  });

  it('LEASE-2: renewing an expired lease is refused; the lease has ended as ttl_expired and its connection is free', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    const out = renewLease(book, claimA(1), TTL, T0 + TTL);
    expect(out.decision).toMatchObject({ kind: 'refused', code: 'lease_not_held' });
    expect(out.book.active).toEqual({});
    expect(out.book.ended[OWNER_A]).toMatchObject({ kind: 'ended', reason: 'ttl_expired', endedAt: T0 + TTL });
    const other = bookWith(OWNER_B, ['c1'], { book: out.book, keyId: 'k2', now: T0 + TTL });
    expect(other.lease.connectionId).toBe('c1');
  });

  it('LEASE-6: the same owner acquiring after its lease ended gets the next generation', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    const released = releaseLease(book, claimA(1), 'owner_exit', T0 + 5);
    const again = acquireLease(
      released.book,
      { ownerHash: OWNER_A, keyId: 'k1', candidates: ['c1'], ttlMs: TTL },
      T0 + 10,
    );
    expect(again.decision).toMatchObject({ kind: 'acquired', lease: { generation: 2 } });
    const expired = acquireLease(
      expireLeases(again.book, T0 + 10 + TTL),
      { ownerHash: OWNER_A, keyId: 'k1', candidates: ['c1'], ttlMs: TTL },
      T0 + 20 + TTL,
    );
    expect(expired.decision).toMatchObject({ kind: 'acquired', lease: { generation: 3 } });
  });

  it('LEASE-8: another key cannot acquire with an owner id that belongs to a different key', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    const out = acquireLease(book, { ownerHash: OWNER_A, keyId: 'k2', candidates: ['c2'], ttlMs: TTL }, T0);
    expect(out.decision).toMatchObject({ kind: 'refused', code: 'lease_key_mismatch' });
  });

  it('LEASE-9: an owner whose connection is no longer eligible moves with the same generation to a free one', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    const out = acquireLease(book, { ownerHash: OWNER_A, keyId: 'k1', candidates: ['c2'], ttlMs: TTL }, T0 + 1);
    expect(out.decision).toMatchObject({ kind: 'moved', from: 'c1', lease: { connectionId: 'c2', generation: 1 } });
  });

  it('LEASE-5: release ends the lease and frees the connection; releasing again is an idempotent answer', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    const first = releaseLease(book, claimA(1), 'owner_exit', T0 + 50);
    expect(first.decision).toMatchObject({
      kind: 'released',
      already: false,
      lease: { reason: 'owner_exit', endedAt: T0 + 50 },
    });
    expect(first.book.active).toEqual({});
    const second = releaseLease(first.book, claimA(1), 'owner_exit', T0 + 60);
    expect(second.decision).toMatchObject({ kind: 'released', already: true });
    expect(second.book).toBe(first.book);
  });

  it('LEASE-8: release by a non-owner (another key or an unknown owner) is refused and the lease keeps holding', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    expect(releaseLease(book, claimA(1, 'k2'), 'owner_exit', T0 + 1).decision).toMatchObject({
      code: 'lease_key_mismatch',
    });
    const stranger = releaseLease(book, { ownerHash: OWNER_B, generation: 1, keyId: 'k1' }, 'owner_exit', T0 + 1);
    expect(stranger.decision).toMatchObject({ code: 'lease_not_held' });
    expect(stranger.book.active[OWNER_A]).toMatchObject({ connectionId: 'c1' });
  });

  it('LEASE-2: a revoked key or a removed connection ends its leases; pruning forgets old ended ones', () => {
    const a = bookWith(OWNER_A, ['c1']);
    const b = bookWith(OWNER_B, ['c2'], { book: a.book, keyId: 'k2' });
    const revoked = endLeasesWhere(b.book, { keyId: 'k2' }, 'key_revoked', T0 + 5);
    expect(Object.keys(revoked.active)).toEqual([OWNER_A]);
    expect(revoked.ended[OWNER_B]).toMatchObject({ reason: 'key_revoked', endedAt: T0 + 5 });
    const removed = endLeasesWhere(revoked, { connectionId: 'c1' }, 'connection_removed', T0 + 6);
    expect(removed.active).toEqual({});
    expect(pruneEndedLeases(removed, T0 + 6 + 1_000, 1_000).ended).toEqual({});
    expect(pruneEndedLeases(removed, T0 + 5 + 999, 1_000)).toBe(removed);
    expect(expireLeases(EMPTY_LEASE_BOOK, T0)).toBe(EMPTY_LEASE_BOOK);
  });
});
