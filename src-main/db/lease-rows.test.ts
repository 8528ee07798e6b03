import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LEASE_OWNER_PATTERN } from '../../src-shared/domain/lease';
import { EMPTY_LEASE_BOOK, type LeaseBook } from '../routing/leases/lease-book';
import { checkFence } from '../routing/leases/lease-fence';
import { acquireLease, pruneEndedLeases, releaseLease } from '../routing/leases/lease-lifecycle';
import { createMemoryDb, createTempDb } from '../testing/temp-db';
import { createLeasesRepo } from '../routing/leases/lease-store';
import { createLeaseRows } from './lease-rows';
import { hashLeaseOwner, mintLeaseOwner } from './lease-owner-material';
import { openDatabase, type Database } from './open';

const T0 = 1_700_000_000_000;
const TTL = 120_000;
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function seed(db: Database): void {
  for (const id of ['k1', 'k2']) {
    db.prepare("INSERT INTO local_keys (id, name, key_hash, prefix, created_at) VALUES (?, ?, ?, 'lw-xxxx', 0)").run(
      id,
      id,
      id.repeat(32),
    );
  }
  for (const id of ['c1', 'c2']) {
    db.prepare("INSERT INTO connections (id, name, kind, created_at, updated_at) VALUES (?, ?, 'anthropic', 0, 0)").run(
      id,
      id,
    );
  }
}

function acquired(book: LeaseBook, ownerHash: string, keyId: string, candidates: string[], now: number): LeaseBook {
  const step = acquireLease(book, { ownerHash, keyId, candidates, ttlMs: TTL }, now);
  if (step.decision.kind !== 'acquired') throw new Error(step.decision.kind);
  return step.book;
}

describe('lease owner material', () => {
  it('LEASE-7: owner ids are vlo_ plus 43 base64url characters, different every time, hashed with SHA-256 hex', () => {
    const owners = Array.from({ length: 100 }, mintLeaseOwner);
    expect(new Set(owners.map((o) => o.owner)).size).toBe(100);
    for (const { owner, ownerHash } of owners) {
      expect(owner).toMatch(LEASE_OWNER_PATTERN);
      expect(ownerHash).toBe(hashLeaseOwner(owner));
      expect(ownerHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(hashLeaseOwner('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('leases repo', () => {
  it('LEASE-2, LEASE-7: a committed lease survives a restart and only the owner’s hash is in the database file', () => {
    const temp = createTempDb();
    closers.push(temp.close);
    seed(temp.db);
    const { owner, ownerHash } = mintLeaseOwner();
    const repo = createLeasesRepo(createLeaseRows(temp.db));
    const committed = repo.commit(acquired(repo.book(), ownerHash, 'k1', ['c1'], T0));
    expect(committed.ok).toBe(true);
    temp.db.pragma('wal_checkpoint(TRUNCATE)');
    temp.db.close();
    expect(readFileSync(temp.file).includes(owner)).toBe(false);
    expect(readFileSync(temp.file).includes(ownerHash)).toBe(true);

    const reopened = openDatabase(temp.file);
    closers.push(() => reopened.close());
    const book = createLeasesRepo(createLeaseRows(reopened)).book();
    expect(checkFence(book, { ownerHash, generation: 1, keyId: 'k1' }, 'c1', T0 + 1)).toMatchObject({ kind: 'ok' });
  });

  it('LEASE-2: a lapsed lease and a new owner on the same connection are written in one commit (ended row first)', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    seed(db);
    const repo = createLeasesRepo(createLeaseRows(db));
    const a = hashLeaseOwner('a');
    const b = hashLeaseOwner('b');
    expect(repo.commit(acquired(repo.book(), a, 'k1', ['c1'], T0)).ok).toBe(true);
    const next = acquired(repo.book(), b, 'k2', ['c1'], T0 + TTL);
    const result = repo.commit(next);
    expect(result).toEqual({ ok: true, value: next });
    const rows = db.prepare('SELECT owner_hash, state, end_reason FROM session_leases ORDER BY state').all();
    expect(rows).toEqual([
      { owner_hash: b, state: 'active', end_reason: null },
      { owner_hash: a, state: 'ended', end_reason: 'ttl_expired' },
    ]);
  });

  it('LEASE-2: the schema itself refuses a second active lease on one connection', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    seed(db);
    const insert = db.prepare(
      "INSERT INTO session_leases (owner_hash, key_id, connection_id, generation, state, acquired_at, renewed_at, expires_at) VALUES (?, 'k1', 'c1', 1, 'active', 0, 0, 1)",
    );
    insert.run('a'.repeat(64));
    expect(() => insert.run('b'.repeat(64))).toThrow(/UNIQUE/);
  });

  it('LEASE-2: a commit that cannot be stored is storage_unavailable and the book in memory stays as it was', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    seed(db);
    const repo = createLeasesRepo(createLeaseRows(db));
    const result = repo.commit(acquired(repo.book(), hashLeaseOwner('a'), 'k1', ['no-such-connection'], T0));
    expect(result).toMatchObject({ ok: false, error: { code: 'storage_unavailable' } });
    expect(repo.book()).toBe(EMPTY_LEASE_BOOK);
  });

  it('LEASE-5: release is stored as ended, pruning deletes the row, and an unchanged book writes nothing', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    seed(db);
    const repo = createLeasesRepo(createLeaseRows(db));
    const a = hashLeaseOwner('a');
    repo.commit(acquired(repo.book(), a, 'k1', ['c1'], T0));
    const released = releaseLease(
      repo.book(),
      { ownerHash: a, generation: 1, keyId: 'k1' },
      'owner_exit',
      T0 + 10,
    ).book;
    repo.commit(released);
    expect(db.prepare('SELECT state, end_reason, ended_at FROM session_leases').get()).toEqual({
      state: 'ended',
      end_reason: 'owner_exit',
      ended_at: T0 + 10,
    });
    expect(repo.commit(repo.book())).toEqual({ ok: true, value: released });
    repo.commit(pruneEndedLeases(repo.book(), T0 + 10 + 1_000, 1_000));
    expect(db.prepare('SELECT COUNT(*) FROM session_leases').pluck().get()).toBe(0);
    expect(createLeasesRepo(createLeaseRows(db)).book()).toBe(EMPTY_LEASE_BOOK);
  });
});
