import type { RequestAttempt, RequestLogEntry } from '../../../src-shared/domain/request-log';

/** Wall-clock time of a request, to the second, in the user's locale. */
export function formatTime(ts: number): string {
  return new Date(ts).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** Latency as people read it: milliseconds under a second, seconds above. */
export function formatLatency(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Compact count: 950, 1.2k, 3.4M. */
export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** "in → out" tokens, or a dash when the upstream reported none. */
export function formatTokens(entry: Pick<RequestLogEntry, 'inputTokens' | 'outputTokens'>): string {
  if (entry.inputTokens === null && entry.outputTokens === null) return '—';
  return `${formatCount(entry.inputTokens ?? 0)} → ${formatCount(entry.outputTokens ?? 0)}`;
}

/** The targets tried before the one that answered, e.g. "main (429) → backup". Empty when none were skipped. */
export function formatFailover(entry: Pick<RequestLogEntry, 'failover' | 'connection'>): string {
  if (entry.failover.length === 0) return '';
  const hops = entry.failover.map((hop) => `${hop.connection} (${hop.status ?? hop.reason})`);
  return [...hops, entry.connection ?? '—'].join(' → ');
}

/** "held 2.1 s": how long the request waited out short cooldowns (CONC-7); empty when it never did. */
export function formatHeld(entry: Pick<RequestLogEntry, 'heldMs'>): string {
  const ms = entry.heldMs;
  if (ms === undefined || ms === null || ms <= 0) return '';
  return `held ${formatLatency(ms)}`;
}

/** "queued 0.4 s": how long the request waited for a connection's maxConcurrent slot (QUEUE-1); empty when it never did. */
export function formatQueued(entry: Pick<RequestLogEntry, 'queuedMs'>): string {
  const ms = entry.queuedMs;
  if (ms === undefined || ms === null || ms <= 0) return '';
  return `queued ${formatLatency(ms)}`;
}

/**
 * "anthropic→openai": the wire formats a translated request was bridged between (issue 12), read
 * from the log's `client->upstream`; empty for a request served in the client's own format.
 */
export function formatTranslated(entry: Pick<RequestLogEntry, 'translated'>): string {
  const value = entry.translated;
  if (value === undefined || value === null || value.trim() === '') return '';
  return value
    .split('->')
    .map((side) => side.trim())
    .join('→');
}

/**
 * Every attempt the detail view lists, in order. Rows from before issue 13 kept only the hops
 * before the answer: the connection that answered is added as the last attempt then.
 */
export function detailAttempts(
  entry: Pick<RequestLogEntry, 'attempts' | 'failover' | 'connection' | 'status' | 'errorCode'>,
): RequestAttempt[] {
  if (entry.attempts && entry.attempts.length > 0) return entry.attempts;
  if (entry.connection === null) return entry.failover;
  const reason = entry.status < 400 ? 'served' : (entry.errorCode ?? 'failed');
  return [...entry.failover, { connection: entry.connection, status: entry.status, reason }];
}

/** An attempt's outcome in a few words: "429 rate_limited", "timeout" (no status), "200 served". */
export function formatAttempt(hop: Pick<RequestAttempt, 'status' | 'reason'>): string {
  return [hop.status === null ? null : String(hop.status), hop.reason || null].filter((p) => p !== null).join(' ');
}

/** Date and time to the second, for the detail view (the list shows the time alone). */
export function formatDateTime(ts: number): string {
  return new Date(ts).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}
