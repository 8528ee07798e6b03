import { describe, expect, it } from 'vitest';
import { checkFence, checkLeaseScope } from './lease-fence';
import { bookWith, OWNER_A, OWNER_B, T0, TTL } from './lease-fixtures.testkit';
import { releaseLease } from './lease-lifecycle';

describe('lease fence', () => {
  const { book } = bookWith(OWNER_A, ['c1']);
  const claim = { ownerHash: OWNER_A, generation: 1, keyId: 'k1' };

  it('LEASE-8: the owner’s key, the exact generation and the leased connection pass the fence', () => {
    expect(checkFence(book, claim, 'c1', T0 + 1)).toMatchObject({ kind: 'ok', lease: { connectionId: 'c1' } });
  });

  it('LEASE-6: a stale generation is refused as lease_generation_stale', () => {
    expect(checkFence(book, { ...claim, generation: 2 }, 'c1', T0 + 1)).toMatchObject({
      kind: 'refused',
      code: 'lease_generation_stale',
    });
  });

  it('LEASE-8: another key is refused as lease_key_mismatch, before anything about the generation', () => {
    expect(checkFence(book, { ...claim, keyId: 'k2', generation: 9 }, 'c1', T0 + 1)).toMatchObject({
      code: 'lease_key_mismatch',
    });
  });

  it('LEASE-8: a connection the lease does not hold is refused as lease_not_held', () => {
    expect(checkFence(book, claim, 'c2', T0 + 1)).toMatchObject({ code: 'lease_not_held' });
  });

  it('LEASE-2: an expired, a released or an unknown lease is refused as lease_not_held', () => {
    expect(checkFence(book, claim, 'c1', T0 + TTL)).toMatchObject({ code: 'lease_not_held' });
    const released = releaseLease(book, claim, 'owner_exit', T0 + 1).book;
    expect(checkFence(released, claim, 'c1', T0 + 2)).toMatchObject({ code: 'lease_not_held' });
    expect(checkFence(book, { ...claim, ownerHash: OWNER_B }, 'c1', T0 + 1)).toMatchObject({ code: 'lease_not_held' });
  });

  it('LEASE-3: only keys with the lease:exclusive scope and a non-empty allowedConnections may lease', () => {
    expect(checkLeaseScope({ scopes: ['lease:exclusive'], allowedConnections: ['c1'] })).toBeNull();
    expect(checkLeaseScope({ scopes: [], allowedConnections: ['c1'] })).toMatchObject({ code: 'lease_scope_required' });
    expect(checkLeaseScope({ scopes: ['lease:exclusive'], allowedConnections: [] })).toMatchObject({
      code: 'lease_scope_required',
    });
  });
});
