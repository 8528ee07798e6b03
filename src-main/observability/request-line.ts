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

/** `  ` and the part, or nothing: the line's parts are joined by two spaces, absent ones skipped. */
const part = (text: string): string => `  ${text}`;

function tokens(entry: NewRequestLogEntry): string {
  if (entry.inputTokens === null && entry.outputTokens === null) return '';
  return part(`${entry.inputTokens ?? '?'} in/${entry.outputTokens ?? '?'} out`);
}

function failoverPath(entry: NewRequestLogEntry): string {
  const hops = entry.failover;
  const last = hops[hops.length - 1];
  // The hops failed over from, counted in place (no copy): all but an answering attempt listed last.
  const failed = last !== undefined && isServedHop(last, entry) ? hops.length - 1 : hops.length;
  if (failed === 0) return '';
  let steps = '';
  for (let i = 0; i < failed; i++) {
    const h = hops[i];
    if (h !== undefined) steps += `${i === 0 ? '' : ' → '}${h.connection} ${h.status ?? '-'} ${h.reason}`;
  }
  return part(`failover ${steps} → ${entry.connection ?? 'none'}`);
}

/**
 * The request's one terminal line (issue 13 §1), from the activity entry alone: key, model →
 * connection, status (with the error code when it failed), time, tokens, the failover path and
 * the held / translated / served-via / pin marks. Absent optional fields print nothing. Built
 * as one string, without an array of parts, since it is made for every request.
 */
export function requestLine(entry: NewRequestLogEntry): string {
  const status =
    entry.status >= 400 && entry.errorCode !== null ? `${entry.status} ${entry.errorCode}` : String(entry.status);
  return (
    `${entry.keyName ?? '-'}  ${entry.model ?? '-'} → ${entry.connection ?? '-'}  ${status}  ${formatMs(entry.latencyMs)}` +
    tokens(entry) +
    failoverPath(entry) +
    (entry.heldMs ? part(`held ${formatMs(entry.heldMs)}`) : '') +
    (entry.queuedMs ? part(`queued ${formatMs(entry.queuedMs)}`) : '') +
    (entry.translated ? part(`translated ${entry.translated}`) : '') +
    (entry.servedVia ? part(`via ${entry.servedVia}`) : '') +
    (entry.sessionPin ? part(`pin ${entry.sessionPin}`) : '')
  );
}
