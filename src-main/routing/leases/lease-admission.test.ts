import { describe, expect, it } from 'vitest';
import { admitLeases } from './lease-admission';
import { EMPTY_LEASE_BOOK } from './lease-book';
import { bookWith, OWNER_A, OWNER_B, T0, TTL } from './lease-fixtures.testkit';

const targets = [
  { connection: 'c1', model: 'x' },
  { connection: 'c2', model: 'x' },
  { connection: 'c1', model: 'y' },
];
const connectionOf = (t: { connection: string }): string => t.connection;
const claimA = { ownerHash: OWNER_A, generation: 1, keyId: 'k1' };

describe('lease admission', () => {
  it('LEASE-1: without leases the candidates pass unchanged, as the same array', () => {
    const out = admitLeases(EMPTY_LEASE_BOOK, targets, connectionOf, null, T0);
    expect(out.decision).toEqual({ kind: 'free', allowed: targets });
    if (out.decision.kind === 'free') expect(out.decision.allowed).toBe(targets);
  });

  it('LEASE-1: a request without a lease cannot use a connection another owner holds', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    expect(admitLeases(book, targets, connectionOf, null, T0 + 1).decision).toEqual({
      kind: 'free',
      allowed: [targets[1]],
    });
  });

  it('LEASE-11: when every candidate is held by others the answer is contention with Retry-After from the earliest expiry', () => {
    const a = bookWith(OWNER_A, ['c1'], { ttlMs: 60_000 });
    const b = bookWith(OWNER_B, ['c2'], { book: a.book, keyId: 'k2', ttlMs: 5_000 });
    expect(admitLeases(b.book, targets, connectionOf, null, T0 + 1_000).decision).toEqual({
      kind: 'capacity_unavailable',
      retryAfterMs: 4_000,
      retryAfterSeconds: 4,
      eligibleCount: 3,
      freeCount: 0,
    });
  });

  it('LEASE-11: Retry-After is bounded to at least 1 s and at most one hour', () => {
    const short = bookWith(OWNER_A, ['c1'], { ttlMs: 1_000 });
    expect(admitLeases(short.book, targets.slice(0, 1), connectionOf, null, T0 + 999).decision).toMatchObject({
      retryAfterSeconds: 1,
    });
    const long = bookWith(OWNER_A, ['c1'], { ttlMs: 5 * 3_600_000 });
    expect(admitLeases(long.book, targets.slice(0, 1), connectionOf, null, T0).decision).toMatchObject({
      retryAfterSeconds: 3_600,
    });
  });

  it('LEASE-12: no eligible candidate at all is an ordinary routing outcome, even while leases exist', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    expect(admitLeases(book, [], connectionOf, null, T0).decision).toEqual({ kind: 'no_eligible_connection' });
    expect(admitLeases(book, [], connectionOf, claimA, T0).decision).toEqual({ kind: 'no_eligible_connection' });
  });

  it('LEASE-1: the holder gets only its leased connection’s candidates, in their order', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    const out = admitLeases(book, targets, connectionOf, claimA, T0 + 1);
    expect(out.decision).toMatchObject({ kind: 'held', allowed: [targets[0], targets[2]] });
    expect(out.book).toBe(book);
  });

  it('LEASE-6: a holder with a stale generation is refused before anything is planned upstream', () => {
    const { book } = bookWith(OWNER_A, ['c1']);
    expect(admitLeases(book, targets, connectionOf, { ...claimA, generation: 3 }, T0 + 1).decision).toMatchObject({
      kind: 'refused',
      code: 'lease_generation_stale',
    });
  });

  it('LEASE-9: when normal rules excluded the leased connection, the same generation moves to a free candidate', () => {
    const a = bookWith(OWNER_A, ['c1'], { ttlMs: TTL });
    const b = bookWith(OWNER_B, ['c3'], { book: a.book, keyId: 'k2' });
    const planned = [
      { connection: 'c3', model: 'x' },
      { connection: 'c2', model: 'x' },
    ];
    const out = admitLeases(b.book, planned, connectionOf, claimA, T0 + 10);
    expect(out.decision).toMatchObject({
      kind: 'moved',
      from: 'c1',
      lease: { connectionId: 'c2', generation: 1, expiresAt: T0 + TTL },
      allowed: [planned[1]],
    });
    expect(out.book.active[OWNER_A]?.connectionId).toBe('c2');
  });

  it('LEASE-11: a holder whose connection was excluded and every other candidate is held by others gets contention', () => {
    const a = bookWith(OWNER_A, ['c1']);
    const b = bookWith(OWNER_B, ['c2'], { book: a.book, keyId: 'k2', ttlMs: 7_000 });
    const out = admitLeases(b.book, targets.slice(1, 2), connectionOf, claimA, T0);
    expect(out.decision).toMatchObject({ kind: 'capacity_unavailable', retryAfterSeconds: 7 });
    expect(out.book).toBe(b.book);
  });
});
