import type { RequestLogEntry } from '../../../src-shared/domain/request-log';

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
