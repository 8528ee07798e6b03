import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pinKeyOf, type Pin } from '../routing/affinity/pin';
import { createAffinityRepo, type AffinityRepo } from '../routing/affinity/pin-store';
import { admitLeases } from '../routing/leases/lease-admission';
import { acquireLease, releaseLease } from '../routing/leases/lease-lifecycle';
import { createLeasesRepo, type LeasesRepo } from '../routing/leases/lease-store';
import { OWNER_A, OWNER_B, TTL } from '../routing/leases/lease-fixtures.testkit';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../testing/redis-server';
import { createTeamShare, type TeamShare } from './team-share';

const skip = redisUnavailableReason();
const HOUR = 3_600_000;

interface Member {
  share: TeamShare;
  pins: AffinityRepo;
  leases: LeasesRepo;
  key: string;
  conn: string;
}

describe.skipIf(skip !== null)(
  `session pins and leases over a real redis-server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let server: RedisServer;
    const shares: TeamShare[] = [];
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(async () => {
      for (const s of shares) await s.close();
      await server.dispose();
    });

    /** An instance whose key `laptop` and connection `acct` have ids of its own, as with two data dirs. */
    async function member(tag: string, prefix: string): Promise<Member> {
      const key = `key-${tag}`;
      const conn = `${tag}-acct`;
      const pins = createAffinityRepo({ loadLive: () => [], writeAll: () => undefined }, Date.now());
      const leases = createLeasesRepo({ loadAll: () => [], writeChanges: () => undefined });
      const share = createTeamShare({
        redis: () => ({ url: server.url, prefix }),
        idOf: (name) => (name === 'acct' || name === 'spare' ? `${tag}-${name}` : null),
        nameOf: (id) => (id.startsWith(`${tag}-`) ? id.slice(tag.length + 1) : null),
        keyIdOf: (name) => (name === 'laptop' ? key : null),
        keyNameOf: (id) => (id === key ? 'laptop' : null),
        log: () => undefined,
      });
      shares.push(share);
      const engine = {
        absorbHealth: () => true,
        absorbBreaker: () => true,
        absorbLockouts: () => false,
        onLockoutsChanged: () => undefined,
      };
      await share.start(engine, { pins, leases });
      await vi.waitFor(() => expect(share.isUp()).toBe(true), { timeout: 5_000, interval: 20 });
      return { share, pins, leases, key, conn };
    }

    const pinOf = (m: Member, now: number): Pin => ({
      keyId: m.key,
      session: 'session-1',
      target: 'main',
      connectionId: m.conn,
      createdAt: now,
      lastServedAt: now,
      expiresAt: now + HOUR,
    });
    const scopeOf = (m: Member): string => pinKeyOf({ keyId: m.key, session: 'session-1', target: 'main' });
    const within = { timeout: 1_000, interval: 10 };

    it('ISSUE-24 §4 AFF-4: a pin made on one instance reaches the other under its own ids; a clear removes it there', async () => {
      const a = await member('a', 'pins:');
      const b = await member('b', 'pins:');
      const now = Date.now();
      a.pins.put(pinOf(a, now));
      await vi.waitFor(() => expect(b.pins.get(scopeOf(b))).toEqual(pinOf(b, now)), within);
      // An instance starting later finds it in the team's hash.
      const c = await member('c', 'pins:');
      expect(c.pins.get(scopeOf(c))).toEqual(pinOf(c, now));
      // A dashboard clear on B reaches A and C; nothing comes back (no echo, the tombstone holds).
      expect(b.pins.clear({ keyId: b.key })).toBe(1);
      await vi.waitFor(() => expect([a.pins.list(), c.pins.list()]).toEqual([[], []]), within);
      await new Promise((r) => setTimeout(r, 200));
      expect([a.pins.list(), b.pins.list(), c.pins.list()]).toEqual([[], [], []]);
    });

    it('ISSUE-24 §4 AFF-6: a session served later elsewhere moves its pin on every instance', async () => {
      const a = await member('a', 'moves:');
      const b = await member('b', 'moves:');
      const now = Date.now();
      a.pins.put(pinOf(a, now));
      await vi.waitFor(() => expect(b.pins.get(scopeOf(b))?.lastServedAt).toBe(now), within);
      // An extension within the resend interval is not re-sent (the others see an expiry at most that early).
      a.pins.put({ ...pinOf(a, now), lastServedAt: now + 10, expiresAt: now + 10 + HOUR });
      await new Promise((r) => setTimeout(r, 200));
      expect(b.pins.get(scopeOf(b))?.lastServedAt).toBe(now);
      // B serves the session on another connection: the move goes out at once and A follows it.
      b.pins.put({ ...pinOf(b, now + 20), connectionId: 'b-spare' });
      await vi.waitFor(
        () => expect(a.pins.get(scopeOf(a))).toMatchObject({ connectionId: 'a-spare', lastServedAt: now + 20 }),
        within,
      );
    });

    it('ISSUE-24 §4 LEASE-1 LEASE-11: a lease held through one instance blocks another owner on the other, until released', async () => {
      const a = await member('a', 'leases:');
      const b = await member('b', 'leases:');
      const now = Date.now();
      const step = acquireLease(
        a.leases.book(),
        { ownerHash: OWNER_A, keyId: a.key, candidates: [a.conn], ttlMs: TTL },
        now,
      );
      expect(step.decision.kind).toBe('acquired');
      expect(a.leases.commit(step.book).ok).toBe(true);
      await vi.waitFor(() => expect(Object.keys(b.leases.book().active)).toEqual([OWNER_A]), within);
      expect(b.leases.book().active[OWNER_A]).toMatchObject({ keyId: b.key, connectionId: b.conn, generation: 1 });
      const other = acquireLease(
        b.leases.book(),
        { ownerHash: OWNER_B, keyId: b.key, candidates: [b.conn], ttlMs: TTL },
        now + 5,
      );
      expect(other.decision).toMatchObject({ kind: 'capacity_unavailable', retryAfterSeconds: TTL / 1000 });
      expect(admitLeases(b.leases.book(), [b.conn], (c) => c, null, now + 5).decision.kind).toBe(
        'capacity_unavailable',
      );

      const released = releaseLease(
        a.leases.book(),
        { ownerHash: OWNER_A, generation: 1, keyId: a.key },
        'owner_exit',
        now + 10,
      );
      expect(a.leases.commit(released.book).ok).toBe(true);
      await vi.waitFor(() => expect(b.leases.book().active).toEqual({}), within);
      expect(b.leases.book().ended[OWNER_A]).toMatchObject({ reason: 'owner_exit', generation: 1 });
      const again = acquireLease(
        b.leases.book(),
        { ownerHash: OWNER_B, keyId: b.key, candidates: [b.conn], ttlMs: TTL },
        now + 20,
      );
      expect(again.decision.kind).toBe('acquired');
    });

    it('ISSUE-24 §4: two grants of one connection within a hop converge on the earlier one on both instances', async () => {
      const a = await member('a', 'race:');
      const b = await member('b', 'race:');
      const now = Date.now();
      // Both commit before either hears the other (same tick): the earlier acquisition must win everywhere.
      const onA = acquireLease(
        a.leases.book(),
        { ownerHash: OWNER_A, keyId: a.key, candidates: [a.conn], ttlMs: TTL },
        now,
      );
      const onB = acquireLease(
        b.leases.book(),
        { ownerHash: OWNER_B, keyId: b.key, candidates: [b.conn], ttlMs: TTL },
        now + 1,
      );
      expect(a.leases.commit(onA.book).ok && b.leases.commit(onB.book).ok).toBe(true);
      await vi.waitFor(() => {
        expect(Object.keys(a.leases.book().active)).toEqual([OWNER_A]);
        expect(Object.keys(b.leases.book().active)).toEqual([OWNER_A]);
      }, within);
      expect(b.leases.book().ended[OWNER_B]).toMatchObject({ reason: 'cleared' });
      expect(a.leases.book().ended[OWNER_B]).toMatchObject({ reason: 'cleared' });
    });

    it('ISSUE-24 §4: a pin and a release made while Redis is down reach the other instance when it returns', async () => {
      const a = await member('a', 'outage:');
      const b = await member('b', 'outage:');
      const now = Date.now();
      const step = acquireLease(
        a.leases.book(),
        { ownerHash: OWNER_A, keyId: a.key, candidates: [a.conn], ttlMs: TTL },
        now,
      );
      expect(a.leases.commit(step.book).ok).toBe(true);
      await vi.waitFor(() => expect(Object.keys(b.leases.book().active)).toEqual([OWNER_A]), within);
      await server.stop();
      a.pins.put(pinOf(a, now));
      const claim = { ownerHash: OWNER_A, generation: 1, keyId: a.key };
      expect(a.leases.commit(releaseLease(a.leases.book(), claim, 'owner_exit', now + 5).book).ok).toBe(true);
      expect([b.pins.list(), Object.keys(b.leases.book().active)]).toEqual([[], [OWNER_A]]);
      await server.restart();
      await vi.waitFor(
        () => {
          expect(b.pins.get(scopeOf(b))).toEqual(pinOf(b, now));
          expect(b.leases.book().active).toEqual({});
        },
        { timeout: 10_000, interval: 50 },
      );
    }, 20_000);
  },
);
