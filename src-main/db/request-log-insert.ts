import type { FailoverHop, RequestLogEntry } from '../../src-shared/domain/request-log';

/** One row's values in INSERT_SQL's parameter order. */
export type RowValues = (string | number | null)[];

/**
 * The activity row's insert, by position: better-sqlite3 binds an array without looking each
 * named parameter up in an object. egress_ip is left to the AFTER INSERT trigger, as before.
 */
export const INSERT_SQL = `
    INSERT INTO request_log (id, ts, key_name, api_format, endpoint, model, connection, status, stream, latency_ms,
      ttfb_ms, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, failover_json, error_code, served_via,
      session_pin, held_ms, translated, upstream_model, attempts_json, error_message, queued_ms,
      cache_lost_tokens, cache_lost_usd)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Values a row binds (the placeholders of INSERT_SQL). */
export const ROW_VALUES = 27;

export function newRowValues(): RowValues {
  return new Array<string | number | null>(ROW_VALUES).fill(null);
}

/** INSERT_SQL for `rows` rows at once: their values one after another, in INSERT_SQL's order. */
export function batchInsertSql(rows: number): string {
  const at = INSERT_SQL.indexOf('VALUES') + 'VALUES'.length;
  const tuple = INSERT_SQL.slice(at).trim();
  return `${INSERT_SQL.slice(0, at)} ${Array.from({ length: rows }, () => tuple).join(', ')}`;
}

/** Most rows have no failover: the same text JSON.stringify would make, without making it. */
const hopsJson = (hops: readonly FailoverHop[]): string => (hops.length === 0 ? '[]' : JSON.stringify(hops));

/**
 * Writes a stored entry (already rounded, see storedEntry) into `values`, overwriting every slot,
 * and returns it. NULL where an optional field is absent; attempts_json NULL when none were recorded.
 */
export function fillRowValues(values: RowValues, entry: RequestLogEntry): RowValues {
  values[0] = entry.id;
  values[1] = entry.ts;
  values[2] = entry.keyName;
  values[3] = entry.apiFormat;
  values[4] = entry.endpoint;
  values[5] = entry.model;
  values[6] = entry.connection;
  values[7] = entry.status;
  values[8] = entry.stream ? 1 : 0;
  values[9] = entry.latencyMs;
  values[10] = entry.ttfbMs;
  values[11] = entry.inputTokens;
  values[12] = entry.outputTokens;
  values[13] = entry.cacheReadTokens;
  values[14] = entry.cacheWriteTokens;
  values[15] = hopsJson(entry.failover);
  values[16] = entry.errorCode;
  values[17] = entry.servedVia;
  values[18] = entry.sessionPin;
  values[19] = entry.heldMs ?? null;
  values[20] = entry.translated ?? null;
  values[21] = entry.upstreamModel ?? null;
  values[22] = entry.attempts && entry.attempts.length > 0 ? JSON.stringify(entry.attempts) : null;
  values[23] = entry.errorMessage ?? null;
  values[24] = entry.queuedMs ?? null;
  values[25] = entry.cacheLostTokens ?? null;
  values[26] = entry.cacheLostUsd ?? null;
  return values;
}
