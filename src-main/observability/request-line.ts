import type { FailoverHop, NewRequestLogEntry } from '../../src-shared/domain/request-log';

/** Whole milliseconds under ten seconds, else seconds with one decimal. */
export function formatMs(ms: number): string {
  return ms < 10_000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Whether a hop is the attempt that answered (an entry may list it last among its hops) rather
 * than one failed over from: same connection, same status as the entry itself.
 */
export function isServedHop(hop: FailoverHop, entry: Pick<NewRequestLogEntry, 'connection' | 'status'>): boolean {
  return hop.connection === entry.connection && hop.status === entry.status;
}

/** The hops failed over from, without the answering attempt where the entry lists it. */
export function failedHops(entry: NewRequestLogEntry): readonly FailoverHop[] {
  const hops = entry.failover;
  const last = hops[hops.length - 1];
  return last !== undefined && isServedHop(last, entry) ? hops.slice(0, -1) : hops;
}

function tokens(entry: NewRequestLogEntry): string | null {
  if (entry.inputTokens === null && entry.outputTokens === null) return null;
  return `${entry.inputTokens ?? '?'} in/${entry.outputTokens ?? '?'} out`;
}

function failoverPath(entry: NewRequestLogEntry): string | null {
  const hops = failedHops(entry);
  if (hops.length === 0) return null;
  const steps = hops.map((h) => `${h.connection} ${h.status ?? '-'} ${h.reason}`);
  return `failover ${steps.join(' → ')} → ${entry.connection ?? 'none'}`;
}

/**
 * The request's one terminal line (issue 13 §1), from the activity entry alone: key, model →
 * connection, status (with the error code when it failed), time, tokens, the failover path and
 * the held / translated / served-via / pin marks. Absent optional fields print nothing.
 */
export function requestLine(entry: NewRequestLogEntry): string {
  const status =
    entry.status >= 400 && entry.errorCode !== null ? `${entry.status} ${entry.errorCode}` : String(entry.status);
  const parts: (string | null)[] = [
    entry.keyName ?? '-',
    `${entry.model ?? '-'} → ${entry.connection ?? '-'}`,
    status,
    formatMs(entry.latencyMs),
    tokens(entry),
    failoverPath(entry),
    entry.heldMs ? `held ${formatMs(entry.heldMs)}` : null,
    entry.queuedMs ? `queued ${formatMs(entry.queuedMs)}` : null,
    entry.translated ? `translated ${entry.translated}` : null,
    entry.servedVia ? `via ${entry.servedVia}` : null,
    entry.sessionPin ? `pin ${entry.sessionPin}` : null,
  ];
  return parts.filter((p) => p !== null).join('  ');
}
