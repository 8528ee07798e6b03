import { fail, ok, type Result } from '../../src-shared/contract/errors';
import type { LeaseEndReason } from '../../src-shared/domain/lease';
import { EMPTY_LEASE_BOOK, type Lease, type LeaseBook } from '../routing/leases/lease-book';
import { messageOf } from './migration-files';
import type { Database } from './open';
import { reportStorageFault } from './storage-health';

/**
 * Exclusive leases (LEASE-2), one row per owner. The current book lives in memory for the request
 * path's fence checks; lifecycle changes (acquire, renew, release, a LEASE-9 move) are written at
 * once, in one transaction, before the new book is used: they are rare, and a hard fence must
 * survive a crash. A failed write leaves memory on the previous book, equal to the table.
 */
export interface LeasesRepo {
  /** The book as of the last successful commit. Memory only. */
  book(): LeaseBook;
  /** Persists what differs between the current book and `next`, then makes `next` current. */
  commit(next: LeaseBook): Result<LeaseBook>;
}

interface LeaseRow {
  owner_hash: string;
  key_id: string;
  connection_id: string;
  generation: number;
  state: 'active' | 'ended';
  acquired_at: number;
  renewed_at: number;
  expires_at: number;
  ended_at: number | null;
  end_reason: LeaseEndReason | null;
}

function toRow(lease: Lease): LeaseRow {
  const ended = lease.kind === 'ended';
  return {
    owner_hash: lease.ownerHash,
    key_id: lease.keyId,
    connection_id: lease.connectionId,
    generation: lease.generation,
    state: lease.kind,
    acquired_at: lease.acquiredAt,
    renewed_at: lease.renewedAt,
    expires_at: lease.expiresAt,
    ended_at: ended ? lease.endedAt : null,
    end_reason: ended ? lease.reason : null,
  };
}

function fromRow(row: LeaseRow): Lease {
  const fields = {
    ownerHash: row.owner_hash,
    keyId: row.key_id,
    connectionId: row.connection_id,
    generation: row.generation,
    acquiredAt: row.acquired_at,
    renewedAt: row.renewed_at,
    expiresAt: row.expires_at,
  };
  if (row.state === 'active') return { kind: 'active', ...fields };
  return { kind: 'ended', ...fields, endedAt: row.ended_at ?? row.expires_at, reason: row.end_reason ?? 'ttl_expired' };
}

/** Every owner whose newest lease differs between the two books; `null` when it was pruned. */
export function leaseChanges(prev: LeaseBook, next: LeaseBook): Map<string, Lease | null> {
  const changes = new Map<string, Lease | null>();
  const owners = new Set([
    ...Object.keys(prev.active),
    ...Object.keys(prev.ended),
    ...Object.keys(next.active),
    ...Object.keys(next.ended),
  ]);
  for (const owner of owners) {
    const before = prev.active[owner] ?? prev.ended[owner];
    const after = next.active[owner] ?? next.ended[owner];
    if (before !== after) changes.set(owner, after ?? null);
  }
  return changes;
}

/** Loads every stored lease and prepares statements once. One per database. */
export function createLeasesRepo(db: Database): LeasesRepo {
  const upsert = db.prepare<[LeaseRow]>(`
    INSERT INTO session_leases (owner_hash, key_id, connection_id, generation, state, acquired_at, renewed_at, expires_at, ended_at, end_reason)
    VALUES (@owner_hash, @key_id, @connection_id, @generation, @state, @acquired_at, @renewed_at, @expires_at, @ended_at, @end_reason)
    ON CONFLICT (owner_hash) DO UPDATE SET key_id = excluded.key_id, connection_id = excluded.connection_id,
      generation = excluded.generation, state = excluded.state, acquired_at = excluded.acquired_at,
      renewed_at = excluded.renewed_at, expires_at = excluded.expires_at, ended_at = excluded.ended_at,
      end_reason = excluded.end_reason`);
  const remove = db.prepare<[string]>('DELETE FROM session_leases WHERE owner_hash = ?');

  const active: Record<string, Lease & { kind: 'active' }> = {};
  const ended: Record<string, Lease & { kind: 'ended' }> = {};
  for (const row of db.prepare<[], LeaseRow>('SELECT * FROM session_leases').all()) {
    const lease = fromRow(row);
    if (lease.kind === 'active') active[lease.ownerHash] = lease;
    else ended[lease.ownerHash] = lease;
  }
  let current: LeaseBook =
    Object.keys(active).length + Object.keys(ended).length === 0 ? EMPTY_LEASE_BOOK : { active, ended };

  // Ended rows and deletions first: the unique index on active connections must never see two.
  const writeAll = db.transaction((changes: Map<string, Lease | null>) => {
    for (const [owner, lease] of changes) if (lease === null) remove.run(owner);
    for (const lease of changes.values()) if (lease?.kind === 'ended') upsert.run(toRow(lease));
    for (const lease of changes.values()) if (lease?.kind === 'active') upsert.run(toRow(lease));
  });

  return {
    book: () => current,
    commit: (next) => {
      if (next === current) return ok(current);
      try {
        writeAll(leaseChanges(current, next));
      } catch (error) {
        // A disk fault also marks storage degraded (issue 21 §16); the lease change is refused either way.
        reportStorageFault(db, error);
        return fail('storage_unavailable', `Could not store the lease change: ${messageOf(error)}`);
      }
      current = next;
      return ok(current);
    },
  };
}
