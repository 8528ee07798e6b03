import { describe, expect, it } from 'vitest';
import type { Pin } from '../routing/affinity/pin';
import { judgePinFact, parsePinFact, pinFactName, tombstoneOf, type PinFact } from './pin-merge';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;
const fact = (over: Partial<PinFact> = {}): PinFact => ({
  key: 'laptop',
  session: 's-1',
  target: 'main',
  connection: 'acct-b',
  createdAt: T0,
  lastServedAt: T0 + 100,
  expiresAt: T0 + 100 + HOUR,
  ...over,
});
const local = (lastServedAt: number): Pin => ({
  keyId: 'k-local',
  session: 's-1',
  target: 'main',
  connectionId: 'id-a',
  createdAt: T0,
  lastServedAt,
  expiresAt: lastServedAt + HOUR,
});

describe('team pin merge', () => {
  it('ISSUE-24 §4 AFF-4: the pin served later wins; an older or expired fact is ignored', () => {
    expect(judgePinFact(fact(), undefined, undefined, T0 + 200)).toBe('put');
    expect(judgePinFact(fact(), local(T0 + 50), undefined, T0 + 200)).toBe('put');
    expect(judgePinFact(fact(), local(T0 + 150), undefined, T0 + 200)).toBe('ignore');
    // A tie keeps what this instance has: both sides already agree or the next serve decides.
    expect(judgePinFact(fact(), local(T0 + 100), undefined, T0 + 200)).toBe('ignore');
    expect(judgePinFact(fact(), undefined, undefined, T0 + 100 + HOUR)).toBe('ignore');
  });

  it('ISSUE-24 §4: a cleared pin is not resurrected by a stale fact; a pin served after the clear is', () => {
    const tomb = tombstoneOf(fact(), T0 + 500);
    expect(tomb).toMatchObject({ clearedAt: T0 + 500, expiresAt: T0 + 500 + HOUR });
    expect(judgePinFact(tomb, local(T0 + 100), undefined, T0 + 501)).toBe('clear');
    expect(judgePinFact(tomb, local(T0 + 900), undefined, T0 + 901)).toBe('ignore');
    expect(judgePinFact(tomb, undefined, undefined, T0 + 501)).toBe('ignore');
    const known = { clearedAt: T0 + 500 };
    expect(judgePinFact(fact({ lastServedAt: T0 + 400 }), undefined, known, T0 + 600)).toBe('ignore');
    expect(judgePinFact(fact({ lastServedAt: T0 + 700 }), undefined, known, T0 + 800)).toBe('put');
  });

  it('ISSUE-24 §4: facts travel by names; a malformed one is refused', () => {
    expect(pinFactName(fact())).toBe('["laptop","s-1","main"]');
    expect(parsePinFact(JSON.stringify(fact({ agent: 'sub' })))).toEqual(fact({ agent: 'sub' }));
    expect(parsePinFact('{"key":"laptop"}')).toBeNull();
    expect(parsePinFact(JSON.stringify({ ...fact(), clearedAt: 'soon' }))).toBeNull();
    expect(parsePinFact('not json')).toBeNull();
  });
});
