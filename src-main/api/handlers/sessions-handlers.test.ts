import { afterEach, describe, expect, it } from 'vitest';
import { hashLeaseOwner, mintLeaseOwner } from '../../db/lease-owner-material';
import { acquireLease } from '../../routing/leases/lease-lifecycle';
import { setUpHandlers, T0, type HandlersHarness } from './handlers-harness.testkit';

const harnesses: HandlersHarness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.close();
});

function setUp() {
  const set = setUpHandlers();
  harnesses.push(set.h);
  return set;
}

function leaseFor(h: HandlersHarness, keyId: string, connectionId: string): string {
  const { owner, ownerHash } = mintLeaseOwner();
  const step = acquireLease(
    h.storage.leases.book(),
    { ownerHash, keyId, candidates: [connectionId], ttlMs: 120_000 },
    T0,
  );
  if (step.decision.kind !== 'acquired') throw new Error(step.decision.kind);
  const committed = h.storage.leases.commit(step.book);
  if (!committed.ok) throw new Error(committed.error.message);
  return owner;
}

describe('sessions and leases handlers', () => {
  it('AFF-4: sessions.list shows live pins with key and connection names, newest first; expired ones are left out', async () => {
    const { h, max1, max2, keyId } = setUp();
    h.storage.affinity.put({
      keyId,
      session: 'old',
      target: 'main',
      connectionId: max1.id,
      createdAt: T0,
      lastServedAt: T0,
      expiresAt: T0 + 3_600_000,
    });
    h.storage.affinity.put({
      keyId,
      session: 'new',
      target: 'main',
      connectionId: max2.id,
      createdAt: T0,
      lastServedAt: T0 + 10,
      expiresAt: T0 + 3_600_010,
    });
    h.storage.affinity.put({
      keyId,
      session: 'gone',
      target: 'main',
      connectionId: max2.id,
      createdAt: T0,
      lastServedAt: T0,
      expiresAt: T0 + 5,
    });
    h.setNow(T0 + 100);
    expect(await h.router.call('sessions.list', undefined)).toEqual({
      ok: true,
      value: [
        {
          keyName: 'laptop',
          session: 'new',
          agent: null,
          target: 'main',
          connection: 'max-2',
          createdAt: T0,
          lastServedAt: T0 + 10,
          expiresAt: T0 + 3_600_010,
        },
        {
          keyName: 'laptop',
          session: 'old',
          agent: null,
          target: 'main',
          connection: 'max-1',
          createdAt: T0,
          lastServedAt: T0,
          expiresAt: T0 + 3_600_000,
        },
      ],
    });
  });

  it('AFF-3: with sessionAffinityTtlMs 0 no pin is listed as live', async () => {
    const { h, max1, keyId } = setUp();
    h.storage.affinity.put({
      keyId,
      session: 's',
      target: 'main',
      connectionId: max1.id,
      createdAt: T0,
      lastServedAt: T0,
      expiresAt: T0 + 3_600_000,
    });
    // Through the live settings object the handlers read (a write to the repository alone is not seen).
    await h.router.call('settings.update', { sessionAffinityTtlMs: 0 });
    expect(await h.router.call('sessions.list', undefined)).toEqual({ ok: true, value: [] });
  });

  it("AFF-4: sessions.clear drops one pin, a connection's pins or all, pushes sessions.changed, and unknown names are not_found", async () => {
    const { h, max1, max2, keyId } = setUp();
    const base = { keyId, target: 'main', createdAt: T0, lastServedAt: T0, expiresAt: T0 + 3_600_000 };
    for (const [session, connectionId] of [
      ['a', max1.id],
      ['b', max1.id],
      ['c', max2.id],
      ['d', max2.id],
    ] as const) {
      h.storage.affinity.put({ ...base, session, connectionId });
    }
    expect(
      await h.router.call('sessions.clear', { target: 'pin', keyName: 'laptop', session: 'a', scope: 'main' }),
    ).toEqual({ ok: true, value: { cleared: 1 } });
    expect(
      await h.router.call('sessions.clear', { target: 'pin', keyName: 'laptop', session: 'a', scope: 'main' }),
    ).toEqual({ ok: true, value: { cleared: 0 } });
    expect(await h.router.call('sessions.clear', { target: 'connection', connection: 'max-2' })).toEqual({
      ok: true,
      value: { cleared: 2 },
    });
    const changed = h.events.filter((e) => e.type === 'sessions.changed');
    expect(changed).toHaveLength(2);
    expect(changed.at(-1)).toMatchObject({ payload: { pins: [{ session: 'b' }], leases: [] } });
    expect(await h.router.call('sessions.clear', { target: 'all' })).toEqual({ ok: true, value: { cleared: 1 } });
    expect(await h.router.call('sessions.clear', { target: 'connection', connection: 'ghost' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(
      await h.router.call('sessions.clear', { target: 'pin', keyName: 'ghost', session: 'a', scope: 'main' }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // The clears are written behind like every pin change: flushed, the table is empty too.
    h.storage.affinity.flush();
    expect(h.storage.db.prepare('SELECT count(*) AS n FROM session_account_affinity').get()).toEqual({ n: 0 });
  });

  it('LEASE-7: leases.list shows key, connection, generation and expiry, and never the owner id or its full hash', async () => {
    const { h, max1, keyId } = setUp();
    const owner = leaseFor(h, keyId, max1.id);
    const listed = await h.router.call('leases.list', undefined);
    expect(listed).toEqual({
      ok: true,
      value: [
        {
          ownerHashPrefix: hashLeaseOwner(owner).slice(0, 8),
          keyName: 'laptop',
          connection: 'max-1',
          generation: 1,
          state: 'active',
          acquiredAt: T0,
          renewedAt: T0,
          expiresAt: T0 + 120_000,
          endedAt: null,
          endReason: null,
        },
      ],
    });
    const text = JSON.stringify(listed);
    expect(text).not.toContain(owner);
    expect(text).not.toContain(hashLeaseOwner(owner));
    h.setNow(T0 + 120_000);
    expect(await h.router.call('leases.list', undefined)).toEqual({ ok: true, value: [] });
  });

  it('LEASE-2: leases.clear ends the leases as cleared, in the table too, and a connection name picks one', async () => {
    const { h, max1, max2, keyId } = setUp();
    leaseFor(h, keyId, max1.id);
    leaseFor(h, keyId, max2.id);
    expect(await h.router.call('leases.clear', { target: 'connection', connection: 'max-1' })).toEqual({
      ok: true,
      value: { cleared: 1 },
    });
    expect(Object.values(h.storage.leases.book().active).map((l) => l.connectionId)).toEqual([max2.id]);
    expect(await h.router.call('leases.clear', { target: 'all' })).toEqual({ ok: true, value: { cleared: 1 } });
    expect(await h.router.call('leases.clear', { target: 'all' })).toEqual({ ok: true, value: { cleared: 0 } });
    const rows = h.storage.db
      .prepare<[], { state: string; end_reason: string }>('SELECT state, end_reason FROM session_leases')
      .all();
    expect(rows).toEqual([
      { state: 'ended', end_reason: 'cleared' },
      { state: 'ended', end_reason: 'cleared' },
    ]);
    expect(await h.router.call('leases.clear', { target: 'connection', connection: 'ghost' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('LEASE-2 AFF-4: revoking a key ends its leases (key_revoked) and drops its pins; removing a connection does the same for it', async () => {
    const { h, max1, max2, keyId } = setUp();
    leaseFor(h, keyId, max1.id);
    h.storage.affinity.put({
      keyId,
      session: 's',
      target: 'main',
      connectionId: max1.id,
      createdAt: T0,
      lastServedAt: T0,
      expiresAt: T0 + 3_600_000,
    });
    expect(await h.router.call('keys.revoke', { id: keyId })).toEqual({ ok: true, value: { revoked: true } });
    expect(h.storage.affinity.list()).toEqual([]);
    expect(Object.values(h.storage.leases.book().ended).map((l) => l.reason)).toEqual(['key_revoked']);

    const other = h.storage.keys.create({ name: 'second' }, T0);
    if (!other.ok) throw new Error('key');
    leaseFor(h, other.value.key.id, max2.id);
    h.storage.affinity.put({
      keyId: other.value.key.id,
      session: 's',
      target: 'x',
      connectionId: max2.id,
      createdAt: T0,
      lastServedAt: T0,
      expiresAt: T0 + 3_600_000,
    });
    expect(await h.router.call('connections.remove', { name: 'max-2' })).toEqual({
      ok: true,
      value: { removed: true },
    });
    expect(h.storage.affinity.list()).toEqual([]);
    expect(Object.keys(h.storage.leases.book().active)).toEqual([]);
    // A later lease change still commits: the memory book holds nothing the table's foreign keys refuse.
    expect(leaseFor(h, other.value.key.id, max1.id)).toMatch(/^vlo_/);
  });
});
