import type { IncomingHttpHeaders } from 'node:http';
import type { RequestAttempt } from '../../../src-shared/domain/request-log';
import type { Answer, AttemptRecord } from './attempt-record';

/** Retry hints and rate-limit resets: the only headers an attempt keeps, and only their values. */
const KEPT_HEADERS: ReadonlySet<string> = new Set([
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
  'request-id',
  'x-request-id',
]);
const MAX_HEADERS = 16;
const MAX_VALUE = 200;

function kept(name: string): boolean {
  if (KEPT_HEADERS.has(name)) return true;
  // anthropic-ratelimit-requests-reset, -unified-5h-reset …; x-ratelimit-reset-requests, -tokens (OpenAI).
  return (name.startsWith('anthropic-ratelimit-') && name.endsWith('-reset')) || name.startsWith('x-ratelimit-reset');
}

/** The headers that explain a failure, by allowlist (never an auth header); null when none came. */
export function headersThatMatter(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> | null {
  let out: Record<string, string> | null = null;
  let count = 0;
  for (const name in headers) {
    if (!kept(name)) continue;
    const value = headers[name];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out ??= {};
    out[name] = text.length > MAX_VALUE ? text.slice(0, MAX_VALUE) : text;
    if (++count >= MAX_HEADERS) break;
  }
  return out;
}

function upstreamHeaders(answer: Answer): IncomingHttpHeaders | null {
  return answer.kind === 'relay' || answer.kind === 'upstream-error' ? answer.upstream.headers : null;
}

interface Verdict {
  status: number | null;
  reason: string;
}

function errorVerdict(answer: Answer): Verdict {
  if (answer.kind === 'upstream-error') return { status: answer.status, reason: answer.reason };
  return { status: null, reason: answer.kind === 'error' ? (answer.reason ?? answer.error.code) : 'upstream_error' };
}

/** What the attempt says about itself: its hop when it has one, else its answer; null when nothing was sent. */
function verdictOf(record: AttemptRecord): Verdict | null {
  switch (record.kind) {
    case 'served':
      return { status: record.answer.upstream.statusCode, reason: 'served' };
    case 'refused':
      // `unsupported`: nothing was sent. `aborted`: the client left while this one was running.
      return record.reason === 'aborted' ? { status: null, reason: 'client_closed' } : null;
    case 'failed-after-commit':
      return { status: record.hop.status, reason: record.hop.reason };
    case 'failed':
      if (record.hop) return { status: record.hop.status, reason: record.hop.reason };
      // count_tokens on a connection that cannot count: an estimate, the upstream was never asked.
      return record.answer.kind === 'local' ? null : errorVerdict(record.answer);
  }
}

/**
 * One finished attempt for the activity row (issue 13 §3): connection, status, reason, how long it
 * took, the model it was sent and, when it failed, the headers that explain why. Cheap on success:
 * no header is read then. Null when there is nothing to note.
 */
export function attemptEntry(record: AttemptRecord, startedAt: number, now: number): RequestAttempt | null {
  const verdict = verdictOf(record);
  if (!verdict) return null;
  const attempt: RequestAttempt = {
    connection: record.target.connection.view.name,
    status: verdict.status,
    reason: verdict.reason,
    ms: Math.max(0, Math.round(now - startedAt)),
    upstreamModel: record.target.upstreamModel,
  };
  // A 200 stream that failed in-band is a failure too: its headers may say when to come back.
  const failed = record.kind === 'failed' || record.kind === 'failed-after-commit';
  const headers = failed ? upstreamHeaders(record.answer) : null;
  const explain = headers ? headersThatMatter(headers) : null;
  if (explain) attempt.headers = explain;
  return attempt;
}
