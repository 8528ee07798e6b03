import type { Pin } from '../routing/affinity/pin';
import type { PinChange, PinRows } from '../routing/affinity/pin-store';
import type { Database } from './open';

interface PinRow {
  key_id: string;
  session: string;
  target: string;
  connection_id: string;
  created_at: number;
  last_served_at: number;
  expires_at: number;
  /** Issue 23 §3: a spread subagent's pin; NULL for a session's own. */
  agent: string | null;
}

const toRow = (pin: Pin): PinRow => ({
  key_id: pin.keyId,
  session: pin.session,
  target: pin.target,
  connection_id: pin.connectionId,
  created_at: pin.createdAt,
  last_served_at: pin.lastServedAt,
  expires_at: pin.expiresAt,
  agent: pin.agent ?? null,
});

const fromRow = (row: PinRow): Pin => {
  const pin: Pin = {
    keyId: row.key_id,
    session: row.session,
    target: row.target,
    connectionId: row.connection_id,
    createdAt: row.created_at,
    lastServedAt: row.last_served_at,
    expiresAt: row.expires_at,
  };
  if (row.agent !== null) pin.agent = row.agent;
  return pin;
};

/** The session pins' rows (`session_account_affinity`); prepares every statement once. */
export function createPinRows(db: Database): PinRows {
  // A pin whose key or connection was deleted meanwhile is skipped, not failed: one such row must
  // not sink the whole batch (the foreign keys would refuse it).
  const upsert = db.prepare<[PinRow]>(`
    INSERT INTO session_account_affinity (key_id, session, target, connection_id, created_at, last_served_at, expires_at, agent)
    SELECT @key_id, @session, @target, @connection_id, @created_at, @last_served_at, @expires_at, @agent
    WHERE EXISTS (SELECT 1 FROM local_keys WHERE id = @key_id) AND EXISTS (SELECT 1 FROM connections WHERE id = @connection_id)
    ON CONFLICT (key_id, session, target) DO UPDATE SET connection_id = excluded.connection_id,
      created_at = excluded.created_at, last_served_at = excluded.last_served_at, expires_at = excluded.expires_at,
      agent = excluded.agent`);
  const remove = db.prepare<[{ key_id: string; session: string; target: string }]>(
    'DELETE FROM session_account_affinity WHERE key_id = @key_id AND session = @session AND target = @target',
  );
  const deleteExpired = db.prepare<[number]>('DELETE FROM session_account_affinity WHERE expires_at <= ?');
  const selectAll = db.prepare<[], PinRow>('SELECT * FROM session_account_affinity');
  const writeAll = db.transaction((changes: readonly PinChange[]) => {
    for (const change of changes) {
      if (change.kind === 'upsert') upsert.run(toRow(change.pin));
      else remove.run({ key_id: change.pin.keyId, session: change.pin.session, target: change.pin.target });
    }
  });

  return {
    loadLive(now) {
      deleteExpired.run(now);
      return selectAll.all().map(fromRow);
    },
    writeAll: (changes) => writeAll(changes),
  };
}
