import { describe, expect, it } from 'vitest';
import { admitLeases } from '../routing/leases/lease-admission';
import type { ActiveLease, EndedLease } from '../routing/leases/lease-book';
import { releaseLease, renewLease } from '../routing/leases/lease-lifecycle';
import { bookWith, OWNER_A, OWNER_B, T0, TTL } from '../routing/leases/lease-fixtures.testkit';
import { mergeLease } from './lease-merge';

/** A lease another instance reports: owner A on connection `x` (already mapped to local ids). */
const remote = (over: Partial<ActiveLease> = {}): ActiveLease => ({
  kind: 'active',
  ownerHash: OWNER_A,
  keyId: 'k1',
  connectionId: 'x',
  generation: 1,
  acquiredAt: T0,
  renewedAt: T0,
  expiresAt: T0 + TTL,
  ...over,
});
const ended = (lease: ActiveLease, endedAt: number): EndedLease => ({
  ...lease,
  kind: 'ended',
  endedAt,
  reason: 'owner_exit',
});
const empty = { active: {}, ended: {} };

describe('team lease merge', () => {
  it('ISSUE-24 §4 LEASE-1 LEASE-11: a lease absorbed from the team keeps other owners off its connection', () => {
    const merged = mergeLease(empty, remote(), T0 + 1);
    if (!merged) throw new Error('not merged');
    const gate = admitLeases(merged.book, ['x'], (c) => c, null, T0 + 1);
    expect(gate.decision).toMatchObject({ kind: 'capacity_unavailable', retryAfterSeconds: TTL / 1000 });
    // Another candidate left: the request goes there instead.
    expect(admitLeases(merged.book, ['x', 'y'], (c) => c, null, T0 + 1).decision).toEqual({
      kind: 'free',
      allowed: ['y'],
    });
  });

  it('ISSUE-24 §4: a release frees the connection; a stale active fact of that generation cannot bring it back', () => {
    const held = mergeLease(empty, remote(), T0 + 1);
    const released = held && mergeLease(held.book, ended(remote(), T0 + 5), T0 + 6);
    if (!released) throw new Error('not merged');
    expect(released.book.active).toEqual({});
    expect(mergeLease(released.book, remote({ renewedAt: T0 + 4 }), T0 + 7)).toBeNull();
    // A renewal arriving late is stale too; a new generation is a new lease.
    expect(mergeLease(released.book, remote({ renewedAt: T0 + 9, expiresAt: T0 + TTL + 9 }), T0 + 10)).toBeNull();
    expect(mergeLease(released.book, remote({ generation: 2, acquiredAt: T0 + 9 }), T0 + 10)?.book.active).toEqual({
      [OWNER_A]: expect.objectContaining({ generation: 2 }),
    });
  });

  it('ISSUE-24 §4 LEASE-6: a later renewal wins over an earlier one; an older generation never wins', () => {
    const first = mergeLease(empty, remote({ generation: 3 }), T0 + 1);
    if (!first) throw new Error('not merged');
    const renewed = mergeLease(
      first.book,
      remote({ generation: 3, renewedAt: T0 + 50, expiresAt: T0 + TTL + 50 }),
      T0 + 51,
    );
    expect(renewed?.book.active[OWNER_A]?.expiresAt).toBe(T0 + TTL + 50);
    expect(mergeLease(first.book, remote({ generation: 2, renewedAt: T0 + 99 }), T0 + 100)).toBeNull();
  });

  it('ISSUE-24 §4: two instances granting one connection within one hop converge on the earlier acquisition', () => {
    // Here owner B took `x` at T0 + 10; the team says owner A took it at T0.
    const local = bookWith(OWNER_B, ['x'], { now: T0 + 10 });
    const merged = mergeLease(local.book, remote(), T0 + 11);
    expect(merged?.book.active).toEqual({ [OWNER_A]: remote() });
    expect(merged?.losers).toEqual([{ ...local.lease, kind: 'ended', endedAt: T0 + 11, reason: 'cleared' }]);
    // The other way round: the later grant arriving from the team is recorded as ended.
    const early = bookWith(OWNER_B, ['x'], { now: T0 - 10 });
    const late = mergeLease(early.book, remote(), T0 + 1);
    expect(late?.book.active).toEqual({ [OWNER_B]: early.lease });
    expect(late?.book.ended[OWNER_A]).toMatchObject({ kind: 'ended', reason: 'cleared', generation: 1 });
    expect(late?.losers).toEqual([]);
  });

  it('ISSUE-24 §4 LEASE-6: the owner can renew and release an absorbed lease here with its key and generation', () => {
    const merged = mergeLease(empty, remote(), T0 + 1);
    if (!merged) throw new Error('not merged');
    const claim = { ownerHash: OWNER_A, generation: 1, keyId: 'k1' };
    expect(renewLease(merged.book, claim, TTL, T0 + 2).decision.kind).toBe('renewed');
    expect(releaseLease(merged.book, claim, 'owner_exit', T0 + 2).decision).toMatchObject({ already: false });
  });

  it('ISSUE-24 §4 LEASE-2: a lapsed lease from the team holds nothing and never displaces a live one', () => {
    const lapsed = mergeLease(empty, remote({ expiresAt: T0 + 5 }), T0 + 10);
    expect(lapsed?.book).toEqual({
      active: {},
      ended: { [OWNER_A]: { ...remote({ expiresAt: T0 + 5 }), kind: 'ended', endedAt: T0 + 5, reason: 'ttl_expired' } },
    });
    const live = bookWith(OWNER_B, ['x'], { now: T0 + 8 });
    expect(mergeLease(live.book, remote({ expiresAt: T0 + 9 }), T0 + 10)?.book.active).toEqual({
      [OWNER_B]: live.lease,
    });
  });
});
