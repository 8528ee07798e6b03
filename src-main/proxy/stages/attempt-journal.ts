import type { IncomingHttpHeaders } from 'node:http';
import type { RequestAttempt } from '../../../src-shared/domain/request-log';
import type { Target } from '../../kernel/target';
import type { Answer, AttemptOutcome } from './attempt';
import type { RequestFrame } from './frame';

/**
 * Every attempt of one request, in order, for its activity row (issue 13 §3): kept apart from
 * `frame.hops`, which the failover header and error details show the client as they were. It
 * spans the passes of a cooldown hold, so an attempt whose answer a hold dropped stays listed.
 */
export type AttemptJournal = RequestAttempt[];

/** Where the journal stands before an attempt: when it started and how many hops the frame had. */
export interface AttemptStart {
  at: number;
  hops: number;
}

export function startAttempt(frame: RequestFrame, now: number): AttemptStart {
  return { at: now, hops: frame.hops.length };
}

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

/** What the attempt said about itself: its hop (made on failover, or pushed early), else its answer. */
function verdictOf(frame: RequestFrame, start: AttemptStart, outcome: AttemptOutcome): Verdict | null {
  switch (outcome.kind) {
    case 'served': {
      const { answer } = outcome;
      if (answer.kind === 'relay') return { status: answer.upstream.statusCode, reason: 'served' };
      return { status: 200, reason: answer.kind === 'local' ? 'estimated' : 'served' };
    }
    case 'refused':
      // `unsupported`: nothing was sent. `aborted`: the client left while this one was running.
      return outcome.reason === 'aborted' ? { status: null, reason: 'client_closed' } : null;
    case 'failed-after-commit':
      return { status: outcome.hop.status, reason: outcome.hop.reason };
    case 'failed-before-first-byte': {
      const hop = outcome.hop ?? (frame.hops.length > start.hops ? frame.hops.at(-1) : undefined);
      if (hop) return { status: hop.status, reason: hop.reason };
      // count_tokens on a connection that cannot count: an estimate, the upstream was never asked.
      if (outcome.answer.kind === 'local') return null;
      return errorVerdict(outcome.answer);
    }
  }
}

/**
 * Notes one finished attempt: connection, status, reason, how long it took, the model it was sent
 * and, when it failed, the headers that explain why. Cheap on success: no header is read then.
 */
export function noteAttempt(
  journal: AttemptJournal,
  frame: RequestFrame,
  target: Target,
  start: AttemptStart,
  outcome: AttemptOutcome,
  now: number,
): void {
  const verdict = verdictOf(frame, start, outcome);
  if (!verdict) return;
  const attempt: RequestAttempt = {
    connection: target.connection.view.name,
    status: verdict.status,
    reason: verdict.reason,
    ms: Math.max(0, Math.round(now - start.at)),
    upstreamModel: target.upstreamModel,
  };
  // A 200 stream that failed in-band is a failure too: its headers may say when to come back.
  const failed = outcome.kind === 'failed-before-first-byte' || outcome.kind === 'failed-after-commit';
  const headers = failed ? upstreamHeaders(outcome.answer) : null;
  const explain = headers ? headersThatMatter(headers) : null;
  if (explain) attempt.headers = explain;
  journal.push(attempt);
}
