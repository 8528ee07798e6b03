import { z } from 'zod';

/**
 * One try at an upstream. The failover path (`failover`) holds the tries before the one that
 * answered, as the `x-leeway-failover` header names them; `attempts` holds every try with its
 * timing. Rows written before issue 13 carry only connection, status and reason.
 */
export interface FailoverHop {
  connection: string;
  status: number | null;
  reason: string;
  /** Issue 13: from sending the request to the verdict (the first byte, for one that served), in ms. */
  ms?: number;
  /** Issue 13: the model id this connection was sent (a combo or alias resolved). */
  upstreamModel?: string;
  /** Issue 13: the headers that explain a failure (retry-after, x-should-retry, rate-limit resets): values only. */
  headers?: Record<string, string>;
}

/** One attempt of a request, in the order they were made; the same shape as a failover hop. */
export type RequestAttempt = FailoverHop;

/** One row of the activity log: what a request did, never what it said. */
export interface RequestLogEntry {
  id: number;
  ts: number;
  keyName: string | null;
  apiFormat: 'anthropic' | 'openai' | 'gemini' | null;
  endpoint: string;
  model: string | null;
  connection: string | null;
  status: number;
  stream: boolean;
  latencyMs: number;
  ttfbMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  failover: FailoverHop[];
  errorCode: string | null;
  /** Set when a Claude subscription answer came after a provider hook: `low-priority-accepted`, `limit-reset`, `slot-busy`. */
  servedVia: string | null;
  /** What the session's pin did: chose the connection, moved to the one that served, or was made now. */
  sessionPin: SessionPinMark | null;
  /** How long the request waited out short cooldowns before it was served or refused (CONC-7); absent or null: never held. */
  heldMs?: number | null;
  /** How long it waited in a connection's request queue for a maxConcurrent slot (QUEUE-1); absent or null: never. */
  queuedMs?: number | null;
  /** Issue 12: `client->upstream` wire formats when the request was translated (`anthropic->openai`); absent or null: not. */
  translated?: string | null;
  /** Issue 13: the model id sent upstream on the last attempt; absent or null: no upstream was tried. */
  upstreamModel?: string | null;
  /** Issue 13: every attempt in order, the one that answered last (reason `served` when it served); absent or []: none recorded. */
  attempts?: RequestAttempt[];
  /** Issue 13: Leeway's own words for a refusal it made itself (never the body, never a key). */
  errorMessage?: string | null;
  /** Issue 24 §3: the warm prompt cache (input tokens) the session left on another account to be served here; absent or null: none. */
  cacheLostTokens?: number | null;
  /** Issue 24 §3: what rebuilding that cache costs over reading it, in USD by the price table. */
  cacheLostUsd?: number | null;
}

export type SessionPinMark = 'kept' | 'moved' | 'new';

export type NewRequestLogEntry = Omit<RequestLogEntry, 'id'>;

/** Which rows a list or an export covers; every field narrows, an absent one matches everything. */
export interface RequestLogFilter {
  connection?: string;
  model?: string;
  status?: 'ok' | 'error';
  /** Epoch ms, inclusive: requests that started at or after it. */
  since?: number;
  /** Epoch ms, inclusive: requests that started at or before it. */
  until?: number;
  /** Free text, see matchesRequestLogFilter(). */
  search?: string;
}

export interface RequestLogQuery extends RequestLogFilter {
  limit?: number;
  beforeId?: number;
}

/** What `activity.exportCsv` answers: the file a person saves, made in the core. */
export interface ActivityCsv {
  filename: string;
  csv: string;
  rows: number;
  /** True when more rows matched than one export holds (the newest were kept). */
  truncated: boolean;
}

/** The attempts a row shows: recorded ones, else (older rows) the failover hops. */
export function attemptsOf(entry: Pick<RequestLogEntry, 'attempts' | 'failover'>): RequestAttempt[] {
  return entry.attempts && entry.attempts.length > 0 ? entry.attempts : entry.failover;
}

/** The search text as both sides compare it: trimmed and lower-case; '' searches nothing. */
export function searchTerm(search: string | undefined): string {
  return (search ?? '').trim().toLowerCase();
}

/** A term of 3 digits is a status too (`429` finds rows with a 429 answer or attempt). */
export function searchStatus(term: string): number | null {
  return /^[1-5]\d\d$/.test(term) ? Number(term) : null;
}

const has = (value: string | null | undefined, term: string): boolean =>
  value !== null && value !== undefined && value.toLowerCase().includes(term);

/**
 * The test the core's SQL applies, for rows that arrive live: search matches (case-insensitively,
 * as a substring) the model asked or sent, connection, key name, endpoint, error code or message,
 * any attempt's connection, reason or model, and a 3-digit term the status of the answer or any attempt.
 */
export function matchesRequestLogFilter(entry: RequestLogEntry, filter: RequestLogFilter): boolean {
  if (filter.connection !== undefined && entry.connection !== filter.connection) return false;
  if (filter.model !== undefined && entry.model !== filter.model) return false;
  if (filter.status !== undefined && (filter.status === 'ok') !== entry.status < 400) return false;
  if (filter.since !== undefined && entry.ts < filter.since) return false;
  if (filter.until !== undefined && entry.ts > filter.until) return false;
  const term = searchTerm(filter.search);
  if (term === '') return true;
  const status = searchStatus(term);
  if (status !== null && entry.status === status) return true;
  const fields = [entry.model, entry.upstreamModel, entry.connection, entry.keyName, entry.endpoint, entry.errorCode];
  if (fields.some((field) => has(field, term)) || has(entry.errorMessage, term)) return true;
  return attemptsOf(entry).some(
    (hop) =>
      has(hop.connection, term) ||
      has(hop.reason, term) ||
      has(hop.upstreamModel, term) ||
      (status !== null && hop.status === status),
  );
}

/** The filter fields `activity.list` and `activity.exportCsv` accept (the contract's shape of RequestLogFilter). */
export const requestLogFilterSchema = z
  .object({
    connection: z.string().optional(),
    model: z.string().optional(),
    status: z.enum(['ok', 'error']).optional(),
    since: z.number().int().nonnegative().optional(),
    until: z.number().int().nonnegative().optional(),
    search: z.string().max(200).optional(),
  })
  .strict();
