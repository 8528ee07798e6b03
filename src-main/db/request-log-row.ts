import type { RequestLogEntry, SessionPinMark } from '../../src-shared/domain/request-log';
import { copyHop, parseHops } from './request-log-hops';

/** A `request_log` row exactly as SQLite returns it (and as the insert binds it). */
export interface RequestLogRow {
  id: number;
  ts: number;
  key_name: string | null;
  api_format: 'anthropic' | 'openai' | null;
  endpoint: string;
  model: string | null;
  connection: string | null;
  status: number;
  stream: number;
  latency_ms: number;
  ttfb_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  failover_json: string;
  error_code: string | null;
  served_via: string | null;
  session_pin: SessionPinMark | null;
  held_ms: number | null;
  queued_ms: number | null;
  cache_lost_tokens?: number | null;
  cache_lost_usd?: number | null;
  translated: string | null;
  upstream_model: string | null;
  /** NULL when no attempt was recorded (a refusal, or a row from before issue 13). */
  attempts_json: string | null;
  error_message: string | null;
}

/** STRICT INTEGER columns refuse fractions; timings from performance.now() have them. */
const int = (value: number): number => Math.round(value);
const intOrNull = (value: number | null): number | null => (value === null ? null : Math.round(value));

/** Rounds numeric fields the way the INTEGER columns will store them, so append() and list() agree. */
export function normaliseEntry(entry: RequestLogEntry): RequestLogEntry {
  return {
    ...entry,
    ts: int(entry.ts),
    status: int(entry.status),
    latencyMs: int(entry.latencyMs),
    ttfbMs: intOrNull(entry.ttfbMs),
    inputTokens: intOrNull(entry.inputTokens),
    outputTokens: intOrNull(entry.outputTokens),
    cacheReadTokens: intOrNull(entry.cacheReadTokens),
    cacheWriteTokens: intOrNull(entry.cacheWriteTokens),
    failover: entry.failover.map(copyHop),
    heldMs: intOrNull(entry.heldMs ?? null),
    queuedMs: intOrNull(entry.queuedMs ?? null),
    cacheLostTokens: intOrNull(entry.cacheLostTokens ?? null),
    cacheLostUsd: entry.cacheLostUsd ?? null,
    translated: entry.translated ?? null,
    upstreamModel: entry.upstreamModel ?? null,
    attempts: (entry.attempts ?? []).map(copyHop),
    errorMessage: entry.errorMessage ?? null,
  };
}

export function fromRow(row: RequestLogRow): RequestLogEntry {
  return {
    id: row.id,
    ts: row.ts,
    keyName: row.key_name,
    apiFormat: row.api_format,
    endpoint: row.endpoint,
    model: row.model,
    connection: row.connection,
    status: row.status,
    stream: row.stream === 1,
    latencyMs: row.latency_ms,
    ttfbMs: row.ttfb_ms,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cacheReadTokens: row.cache_read_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    failover: parseHops(row.failover_json),
    errorCode: row.error_code,
    servedVia: row.served_via ?? null,
    sessionPin: row.session_pin ?? null,
    heldMs: row.held_ms ?? null,
    queuedMs: row.queued_ms ?? null,
    cacheLostTokens: row.cache_lost_tokens ?? null,
    cacheLostUsd: row.cache_lost_usd ?? null,
    translated: row.translated ?? null,
    upstreamModel: row.upstream_model ?? null,
    attempts: parseHops(row.attempts_json ?? null),
    errorMessage: row.error_message ?? null,
  };
}
