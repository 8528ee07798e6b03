import { describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_AFFINITY_TTL_MS } from '../../../src-shared/domain/affinity';
import { expiredPinKeys, pinKeyOf, standingOf, type Pin, type PinScope } from './pin';
import { learnServed } from './pin-learn';
import { orderByPin } from './pin-order';

const TTL = DEFAULT_SESSION_AFFINITY_TTL_MS;
const T0 = 1_700_000_000_000;
const SCOPE: PinScope = { keyId: 'k1', session: 's1', target: 'main' };
const CANDIDATES = [
  { connection: 'a', model: 'm' },
  { connection: 'b', model: 'm' },
  { connection: 'c', model: 'm' },
] as const;
type Candidate = (typeof CANDIDATES)[number];
const connectionOf = (candidate: { connection: string }): string => candidate.connection;

function pinOn(connectionId: string, now = T0, ttl = TTL): Pin {
  const change = learnServed(undefined, SCOPE, connectionId, ttl, now);
  if (change.kind !== 'created') throw new Error(`expected a new pin, got ${change.kind}`);
  return change.pin;
}

describe('pin engine', () => {
  it('AFF-8: a first served request creates a pin that lives one hour by default', () => {
    expect(learnServed(undefined, SCOPE, 'b', TTL, T0)).toEqual({
      kind: 'created',
      pin: { ...SCOPE, connectionId: 'b', createdAt: T0, lastServedAt: T0, expiresAt: T0 + 3_600_000 },
    });
  });

  it('AFF-2: a live pin puts its connection first and says it decided', () => {
    const proposal = orderByPin(CANDIDATES, connectionOf, pinOn('c'), TTL, T0 + 1_000);
    expect(proposal.kind).toBe('pinned');
    expect(proposal.order.map(connectionOf)).toEqual(['c', 'a', 'b']);
  });

  it('AFF-2: every entry of the pinned connection moves to the front in its order; none is dropped or added', () => {
    const combo = [
      { connection: 'a', model: 'x' },
      { connection: 'b', model: 'x' },
      { connection: 'a', model: 'y' },
    ];
    const proposal = orderByPin(combo, connectionOf, pinOn('a'), TTL, T0);
    expect(proposal.order).toEqual([combo[0], combo[2], combo[1]]);
  });

  it('AFF-2: when the pinned connection is already first the same array comes back (no allocation)', () => {
    const proposal = orderByPin(CANDIDATES, connectionOf, pinOn('a'), TTL, T0);
    expect(proposal).toEqual({ kind: 'pinned', connectionId: 'a', order: CANDIDATES });
    expect(proposal.order).toBe(CANDIDATES);
  });

  it('AFF-6: a pinned connection the plan excluded is absent, so the order stays and nothing is overridden', () => {
    const planned: Candidate[] = CANDIDATES.filter((c) => c.connection !== 'b');
    const proposal = orderByPin(planned, connectionOf, pinOn('b'), TTL, T0);
    expect(proposal).toEqual({ kind: 'unpinned', reason: 'pinned_unavailable', order: planned });
  });

  it('AFF-6: when another connection served, the pin moves there and keeps its scope', () => {
    const change = learnServed(pinOn('b'), SCOPE, 'c', TTL, T0 + 5_000);
    expect(change).toEqual({
      kind: 'moved',
      from: 'b',
      pin: {
        ...SCOPE,
        connectionId: 'c',
        createdAt: T0 + 5_000,
        lastServedAt: T0 + 5_000,
        expiresAt: T0 + 5_000 + TTL,
      },
    });
  });

  it('AFF-8: each request served on the pin extends it from that moment', () => {
    const change = learnServed(pinOn('a'), SCOPE, 'a', TTL, T0 + 40 * 60_000);
    expect(change).toEqual({
      kind: 'extended',
      pin: { ...SCOPE, connectionId: 'a', createdAt: T0, lastServedAt: T0 + 40 * 60_000, expiresAt: T0 + 100 * 60_000 },
    });
    if (change.kind !== 'extended') return;
    expect(standingOf(change.pin, TTL, T0 + 90 * 60_000).kind).toBe('live');
  });

  it('AFF-3: a pin is live until the last millisecond before its expiry and not at it', () => {
    const pin = pinOn('a', T0, 60_000);
    expect(standingOf(pin, 60_000, T0 + 59_999).kind).toBe('live');
    expect(standingOf(pin, 60_000, T0 + 60_000).kind).toBe('expired');
    expect(orderByPin(CANDIDATES, connectionOf, pin, 60_000, T0 + 60_000)).toMatchObject({
      kind: 'unpinned',
      reason: 'expired',
    });
  });

  it('AFF-3: an expired pin is replaced by a new one on the connection that served, not extended', () => {
    const change = learnServed(pinOn('a', T0, 60_000), SCOPE, 'b', 60_000, T0 + 61_000);
    expect(change).toMatchObject({
      kind: 'created',
      pin: { connectionId: 'b', createdAt: T0 + 61_000, expiresAt: T0 + 121_000 },
    });
  });

  it('AFF-3: a TTL of 0 disables affinity: no order change and nothing to store', () => {
    const pin = pinOn('c');
    expect(orderByPin(CANDIDATES, connectionOf, pin, 0, T0)).toEqual({
      kind: 'unpinned',
      reason: 'disabled',
      order: CANDIDATES,
    });
    expect(learnServed(pin, SCOPE, 'c', 0, T0)).toEqual({ kind: 'disabled' });
  });

  it('AFF-3: a lowered TTL applies to existing pins at once (measured from the last served request)', () => {
    const pin = pinOn('a', T0, TTL);
    expect(standingOf(pin, 10 * 60_000, T0 + 11 * 60_000).kind).toBe('expired');
    expect(standingOf(pin, 10 * 60_000, T0 + 9 * 60_000).kind).toBe('live');
  });

  it('AFF-7: pins are scoped by key, session and model: each part gives a different map key', () => {
    const keys = new Set([
      pinKeyOf(SCOPE),
      pinKeyOf({ ...SCOPE, keyId: 'k2' }),
      pinKeyOf({ ...SCOPE, session: 's2' }),
      pinKeyOf({ ...SCOPE, target: 'claude-haiku-4-5' }),
      pinKeyOf({ keyId: 'k1s', session: '1', target: 'main' }),
    ]);
    expect(keys.size).toBe(5);
  });

  it('AFF-4: pruning names only pins at or past their expiry', () => {
    const pins = new Map<string, Pin>([
      ['old', pinOn('a', T0, 1_000)],
      ['edge', pinOn('b', T0 + 1_000, 1_000)],
      ['fresh', pinOn('c', T0 + 5_000, 1_000)],
    ]);
    expect(expiredPinKeys(pins, T0 + 2_000)).toEqual(['old', 'edge']);
    expect(expiredPinKeys(new Map(), T0)).toEqual([]);
  });
});
