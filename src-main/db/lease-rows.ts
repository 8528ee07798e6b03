import type { LeaseEndReason } from '../../src-shared/domain/lease';
import type { Lease } from '../routing/leases/lease-book';
import type { LeaseRows } from '../routing/leases/lease-store';
import type { Database } from './open';
import { reportStorageFault } from './storage-health';

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

/** The leases' rows (`session_leases`), one per owner; prepares every statement once. */
export function createLeaseRows(db: Database): LeaseRows {
  const upsert = db.prepare<[LeaseRow]>(`
    INSERT INTO session_leases (owner_hash, key_id, connection_id, generation, state, acquired_at, renewed_at, expires_at, ended_at, end_reason)
    VALUES (@owner_hash, @key_id, @connection_id, @generation, @state, @acquired_at, @renewed_at, @expires_at, @ended_at, @end_reason)
    ON CONFLICT (owner_hash) DO UPDATE SET key_id = excluded.key_id, connection_id = excluded.connection_id,
      generation = excluded.generation, state = excluded.state, acquired_at = excluded.acquired_at,
      renewed_at = excluded.renewed_at, expires_at = excluded.expires_at, ended_at = excluded.ended_at,
      end_reason = excluded.end_reason`);
  const remove = db.prepare<[string]>('DELETE FROM session_leases WHERE owner_hash = ?');

  const selectAll = db.prepare<[], LeaseRow>('SELECT * FROM session_leases');
  // Ended rows and deletions first: the unique index on active connections must never see two.
  const writeAll = db.transaction((changes: ReadonlyMap<string, Lease | null>) => {
    for (const [owner, lease] of changes) if (lease === null) remove.run(owner);
    for (const lease of changes.values()) if (lease?.kind === 'ended') upsert.run(toRow(lease));
    for (const lease of changes.values()) if (lease?.kind === 'active') upsert.run(toRow(lease));
  });

  return {
    loadAll: () => selectAll.all().map(fromRow),
    writeChanges(changes) {
      try {
        writeAll(changes);
      } catch (error) {
        // A disk fault also marks storage degraded (issue 21 §16); the lease change is refused either way.
        reportStorageFault(db, error);
        throw error;
      }
    },
  };
}
