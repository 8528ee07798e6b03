import { impliedDecision, type DecisionRecord, type RequestDecision } from '../../src-shared/domain/decision';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import type { Database } from './open';
import { parseHops } from './request-log-hops';

/** The decision records beside the activity rows (issue 24, `request_decisions`). */
export interface DecisionRows {
  /** Keeps one until its row is written (in memory only: nothing is serialised on a request's path). */
  hold(id: number, decision: DecisionRecord): void;
  /** Drops a held one whose row was dropped (a failing disk's bound). */
  forget(id: number): void;
  /** Inside the request log's flush transaction: writes the held records of these rows. */
  write(rows: readonly RequestLogEntry[]): void;
  /** After the transaction committed: these rows' records are on disk, no longer held. */
  settle(rows: readonly RequestLogEntry[]): void;
  /** By request id, or the newest request's; a row without a stored record has the one it implies. */
  read(id: number | 'last'): RequestDecision | null;
}

/** Narrow check of a stored record: written by this code, so its shape only needs confirming. */
function isRecord(value: unknown): value is DecisionRecord {
  return typeof value === 'object' && value !== null && 'entries' in value && Array.isArray(value.entries);
}

/** Records per multi-row INSERT (2 values each, far under SQLite's 32 766 variables). */
const BATCH = 64;

export function createDecisionRows(db: Database): DecisionRows {
  const insert = db.prepare<[(number | string)[]]>(
    'INSERT OR REPLACE INTO request_decisions (request_id, decision_json) VALUES (?, ?)',
  );
  const select = db.prepare<[number], { id: number; json: string }>(
    'SELECT request_id AS id, decision_json AS json FROM request_decisions WHERE request_id = ?',
  );
  const newest = db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM request_log');
  const logRow = db.prepare<
    [number],
    { connection: string | null; status: number; failover: string; attempts: string | null }
  >('SELECT connection, status, failover_json AS failover, attempts_json AS attempts FROM request_log WHERE id = ?');
  const insertBatch = db.prepare<[(number | string)[]]>(
    `INSERT OR REPLACE INTO request_decisions (request_id, decision_json) VALUES ${Array(BATCH).fill('(?, ?)').join(', ')}`,
  );
  const values: (number | string)[] = [];
  const held = new Map<number, DecisionRecord>();
  return {
    hold: (id, decision) => void held.set(id, decision),
    forget: (id) => void held.delete(id),
    write(rows) {
      if (held.size === 0) return;
      // Whole batches in one statement (a statement per row cost ~5 µs a request), the rest singly.
      values.length = 0;
      let count = 0;
      for (const row of rows) {
        const decision = held.get(row.id);
        if (decision === undefined) continue;
        values.push(row.id, JSON.stringify(decision));
        if (++count === BATCH) {
          insertBatch.run(values);
          values.length = 0;
          count = 0;
        }
      }
      for (let i = 0; i < values.length; i += 2) insert.run(values.slice(i, i + 2));
      values.length = 0;
    },
    settle(rows) {
      if (held.size === 0) return;
      for (const row of rows) held.delete(row.id);
    },
    read(id) {
      const at = id === 'last' ? newest.get()?.id : id;
      if (at === undefined || at === null) return null;
      const stored = select.get(at);
      if (stored !== undefined) {
        const parsed: unknown = JSON.parse(stored.json);
        return isRecord(parsed) ? { id: at, decision: parsed } : null;
      }
      const row = logRow.get(at);
      if (row === undefined) return null;
      const implied = { ...row, failover: parseHops(row.failover), attempts: parseHops(row.attempts) };
      return { id: at, decision: impliedDecision(implied) };
    },
  };
}
