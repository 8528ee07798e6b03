import type { RequestDecision } from '../../src-shared/domain/decision';
import type {
  FailoverHop,
  NewRequestLogEntry,
  RequestLogEntry,
  RequestLogQuery,
} from '../../src-shared/domain/request-log';
import { createDecisionRows } from './request-decision-rows';
import type { Database } from './open';
import { copyHop } from './request-log-hops';
import { fromRow, type RequestLogRow } from './request-log-row';
import {
  batchInsertSql,
  fillRowValues,
  INSERT_SQL,
  newRowValues,
  ROW_VALUES,
  type RowValues,
} from './request-log-insert';
import { listParams, SEARCH_CONDITION, type ListParams } from './request-log-search';
import type { StorageHealth } from './storage-health';

/**
 * The activity log. append() is on the proxy's hot path, so it only buffers in memory; rows reach
 * SQLite in batches (every `flushEvery` rows, on reads, or when the core's timer calls flush()).
 * Ids are handed out before their rows are written, so they come from a block reserved on disk
 * beforehand (`request_log_seq`): an id is never reused, not after a crash lost the buffered rows
 * and not after pruning lowered MAX(id). A restart skips what was left of the block.
 * While the disk refuses writes (issue 21 §16) the rows wait in memory, at most `maxHeldRows` (the
 * oldest dropped and counted beyond that), and only the core's timer tries again: append() never
 * throws and never writes then. (Ids handed out meanwhile are past the reservation on disk; only a
 * crash before the disk recovers could hand them out again, for rows that were never written.)
 */
export interface RequestLog {
  /** Buffers one entry and returns it with its id; writes only when the buffer is full. */
  append(entry: NewRequestLogEntry): RequestLogEntry;
  /** Writes every buffered row in one transaction; a storage fault keeps them (reported, not thrown). */
  flush(): void;
  /** A write that succeeds only when the disk takes writes (the reservation, rewritten). */
  probe(): void;
  /** Rows waiting in memory, and rows dropped since start because too many waited. */
  held(): { rows: number; dropped: number };
  /** Newest first, after a flush; limit defaults to 100 and is capped at 1000 (page on with beforeId). */
  list(query?: RequestLogQuery): RequestLogEntry[];
  /** Requests and errors (status >= 400) at or after `ts`. */
  summarySince(ts: number): { requests: number; errors: number };
  /** Issue 24: a request's decision record by its id (or the newest); null when none was kept (or the row is gone). */
  decision(id: number | 'last'): RequestDecision | null;
  /** Deletes rows older than `maxAgeDays` and beyond the newest `maxRows`; returns how many. */
  prune(now: number, maxRows: number, maxAgeDays: number): number;
}

const DAY_MS = 86_400_000;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;

const int = (value: number): number => Math.round(value);
const intOrNull = (value: number | null): number | null => (value === null ? null : Math.round(value));

/**
 * Hops as stored. The proxy hands its trail's lists over once the request ended and builds each hop
 * with whole milliseconds: those are kept as they are (a copy per hop per request was most of an
 * append's cost); any other list is copied and rounded.
 */
function storedHops(hops: FailoverHop[]): FailoverHop[] {
  for (const hop of hops) if (hop.ms !== undefined && !Number.isInteger(hop.ms)) return hops.map(copyHop);
  return hops;
}

/**
 * The entry as stored: its id, numbers rounded the way the INTEGER columns keep them (so append()
 * and list() agree), hops copied. Same result as normaliseEntry({ ...entry, id }), built as one
 * literal: the two spreads cost ~20 µs a request (measured; they overwrite fields of the copied
 * shape), this ~0.3 µs.
 */
function storedEntry(entry: NewRequestLogEntry, id: number): RequestLogEntry {
  return {
    id,
    ts: int(entry.ts),
    keyName: entry.keyName,
    apiFormat: entry.apiFormat,
    endpoint: entry.endpoint,
    model: entry.model,
    connection: entry.connection,
    status: int(entry.status),
    stream: entry.stream,
    latencyMs: int(entry.latencyMs),
    ttfbMs: intOrNull(entry.ttfbMs),
    inputTokens: intOrNull(entry.inputTokens),
    outputTokens: intOrNull(entry.outputTokens),
    cacheReadTokens: intOrNull(entry.cacheReadTokens),
    cacheWriteTokens: intOrNull(entry.cacheWriteTokens),
    failover: storedHops(entry.failover),
    errorCode: entry.errorCode,
    servedVia: entry.servedVia,
    sessionPin: entry.sessionPin,
    heldMs: intOrNull(entry.heldMs ?? null),
    queuedMs: intOrNull(entry.queuedMs ?? null),
    cacheLostTokens: intOrNull(entry.cacheLostTokens ?? null),
    cacheLostUsd: entry.cacheLostUsd ?? null,
    translated: entry.translated ?? null,
    upstreamModel: entry.upstreamModel ?? null,
    attempts: entry.attempts === undefined ? [] : storedHops(entry.attempts),
    errorMessage: entry.errorMessage ?? null,
    agentId: entry.agentId ?? null,
    parentAgentId: entry.parentAgentId ?? null,
  };
}

/** Ids reserved at a time; a flush tops the reservation up once less than half of it is left. */
const ID_BLOCK = 10_000;
/** Rows kept for a failing disk: hours of a coding agent's traffic, a few MB. */
export const MAX_HELD_ROWS = 10_000;

/**
 * Creates the log, preparing every statement once and reserving its first block of ids (the one
 * synchronous write at open). Only one RequestLog may write a database.
 */
export function createRequestLog(
  db: Database,
  opts: { flushEvery?: number; idBlock?: number; maxHeldRows?: number; health?: StorageHealth } = {},
): RequestLog {
  const flushEvery = Math.max(1, opts.flushEvery ?? 200);
  const maxHeld = Math.max(flushEvery, opts.maxHeldRows ?? MAX_HELD_ROWS);
  const health = opts.health ?? null;
  const idBlock = Math.max(2, Math.floor(opts.idBlock ?? ID_BLOCK));
  const insert = db.prepare<[RowValues]>(INSERT_SQL);
  // A full batch is one statement of `flushEvery` rows: a quarter cheaper a row than a statement
  // each (measured, 128 rows), and a batch is what a busy proxy writes. Within SQLite's
  // 32,766-parameter limit only; smaller batches (a timer's flush) go row by row.
  const batchRows = flushEvery > 1 && flushEvery * ROW_VALUES <= 30_000 ? flushEvery : 0;
  const insertBatch = batchRows > 0 ? db.prepare<[RowValues]>(batchInsertSql(batchRows)) : null;
  const batchValues: RowValues = [];
  // One statement for every filter combination: a NULL parameter switches its condition off.
  const select = db.prepare<[ListParams], RequestLogRow>(`
    SELECT * FROM request_log
    WHERE (@beforeId IS NULL OR id < @beforeId)
      AND (@connection IS NULL OR connection = @connection)
      AND (@model IS NULL OR model = @model)
      AND (@status IS NULL OR (@status = 'ok' AND status < 400) OR (@status = 'error' AND status >= 400))
      AND (@since IS NULL OR ts >= @since)
      AND (@until IS NULL OR ts <= @until)
      AND ${SEARCH_CONDITION}
    ORDER BY id DESC LIMIT @limit`);
  const summary = db.prepare<[number], { requests: number; errors: number | null }>(
    'SELECT COUNT(*) AS requests, SUM(status >= 400) AS errors FROM request_log WHERE ts >= ?',
  );
  const deleteOlder = db.prepare<[number]>('DELETE FROM request_log WHERE ts < ?');
  const deleteBeyond = db.prepare<[number]>(
    'DELETE FROM request_log WHERE id <= (SELECT id FROM request_log ORDER BY id DESC LIMIT 1 OFFSET ?)',
  );
  // MAX() keeps the mark from ever moving back, whatever a caller passes.
  const reserve = db.prepare<[number]>(`
    INSERT INTO request_log_seq (id, reserved_through) VALUES (1, ?)
    ON CONFLICT (id) DO UPDATE SET reserved_through = MAX(reserved_through, excluded.reserved_through)`);
  const reserved = db
    .prepare<[], { reserved: number }>('SELECT reserved_through AS reserved FROM request_log_seq WHERE id = 1')
    .get()?.reserved;
  const maxId = db.prepare<[], { maxId: number | null }>('SELECT MAX(id) AS maxId FROM request_log').get()?.maxId;

  // Past every id an earlier process may have handed out, whether or not its row was written.
  const start = Math.max(reserved ?? 0, maxId ?? 0);
  let nextId = start + 1;
  let reservedThrough = start + idBlock;
  reserve.run(reservedThrough);
  let buffer: RequestLogEntry[] = [];
  const decisions = createDecisionRows(db);
  /** The last flush failed on storage: appends wait for the timer instead of writing. */
  let failing = false;
  let dropped = 0;
  /** Past the bound the oldest rows go: the newest say most about what is happening now. */
  const bound = (): void => {
    const over = buffer.length - maxHeld;
    if (over <= 0) return;
    for (let i = 0; i < over; i++) decisions.forget(buffer[i]?.id ?? 0);
    buffer.splice(0, over);
    dropped += over;
  };

  const commit = db.transaction((rows: RequestLogEntry[], through: number | null) => {
    // One array of values, refilled per row: no row object and no named-parameter lookups per insert.
    const values = newRowValues();
    let at = 0;
    if (insertBatch !== null)
      for (; at + batchRows <= rows.length; at += batchRows) {
        batchValues.length = 0;
        for (let i = at; i < at + batchRows; i++) {
          const entry = rows[i];
          if (entry) for (const v of fillRowValues(values, entry)) batchValues.push(v);
        }
        insertBatch.run(batchValues);
      }
    for (; at < rows.length; at++) {
      const entry = rows[at];
      if (entry) insert.run(fillRowValues(values, entry));
    }
    batchValues.length = 0;
    decisions.write(rows);
    if (through !== null) reserve.run(through);
  });

  const flush = (): void => {
    const left = reservedThrough - nextId + 1;
    const through = left < idBlock / 2 ? nextId - 1 + idBlock : null;
    if (buffer.length === 0 && through === null) return;
    const rows = buffer;
    buffer = [];
    try {
      commit(rows, through);
    } catch (error) {
      // Keep the rows (ahead of any appended meanwhile) so a transient failure loses nothing.
      buffer = rows.concat(buffer);
      if (health === null || !health.report(error)) throw error;
      failing = true;
      bound();
      return;
    }
    failing = false;
    decisions.settle(rows);
    // Only a committed reservation may be handed out.
    if (through !== null) reservedThrough = through;
  };

  const prune = db.transaction((now: number, maxRows: number, maxAgeDays: number): number => {
    const aged = deleteOlder.run(now - maxAgeDays * DAY_MS).changes;
    return aged + deleteBeyond.run(Math.max(0, Math.floor(maxRows))).changes;
  });

  return {
    append: (entry) => {
      // Only when more than half a block was appended since the last flush (flushEvery is smaller).
      if (nextId > reservedThrough && !failing) flush();
      const full = storedEntry(entry, nextId++);
      if (entry.decision !== undefined) decisions.hold(full.id, entry.decision);
      buffer.push(full);
      if (failing) bound();
      else if (buffer.length >= flushEvery) flush();
      return full;
    },
    flush,
    probe: () => void reserve.run(reservedThrough),
    held: () => ({ rows: buffer.length, dropped }),
    list: (query = {}) => {
      flush();
      const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(query.limit ?? DEFAULT_LIMIT)));
      return select.all(listParams(query, limit)).map(fromRow);
    },
    decision: (id) => {
      flush();
      return decisions.read(id);
    },
    summarySince: (ts) => {
      flush();
      const row = summary.get(ts);
      return { requests: row?.requests ?? 0, errors: row?.errors ?? 0 };
    },
    prune: (now, maxRows, maxAgeDays) => {
      flush();
      return prune(now, maxRows, maxAgeDays);
    },
  };
}
