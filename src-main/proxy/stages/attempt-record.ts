import type { AppError } from '../../../src-shared/contract/errors';
import type { FailoverHop } from '../../../src-shared/domain/request-log';
import type { AttemptVerdict } from '../../kernel/attempt-outcome';
import { redactSecrets, secretStrings } from '../../kernel/redact-secrets';
import type { Target } from '../../kernel/target';
import type { UpstreamAnswer } from '../../kernel/upstream-answer';
import { executionTimeoutError } from '../../resilience/queue/engine/queue-admission';
import { summarizeUpstreamText } from '../relay/upstream-text';
import { headerValue } from '../wire/header-value';
import type { Begun, Observation, Seen } from './attempt';
import { estimatedCount } from './count-estimate';
import { earlyFailureError } from './early-failure';
import type { RequestFrame } from './frame';

/** What the answer stage sends: an upstream answer to relay, an upstream error, or Leeway's own error. */
export type Answer =
  | ({ kind: 'relay'; target: Target } & Begun)
  | {
      kind: 'upstream-error';
      target: Target;
      upstream: UpstreamAnswer;
      body: Buffer;
      status: number;
      retryAfterMs: number | null;
      secrets: readonly string[];
      reason: string;
      /** Said when no target serves soon (issue 21 §11): when the first does, as a note and Retry-After. */
      reset?: { note: string; retryAfterMs: number; shouldRetry: boolean };
    }
  /** An error the client is told in its own format (or as an SSE event once a keep-alive stream is open). */
  | { kind: 'error'; error: AppError; connection: string | null; reason?: string }
  /** Leeway answered for the connection itself (a token-count estimate, issue 12 §3). */
  | { kind: 'local'; connection: string; body: string; headers: Record<string, string> };

/**
 * One attempt as the request loop keeps it: what it saw, learned and would answer. `served`: its
 * answer is the request's. `failed`: nothing reached the client, the next candidate may serve
 * (`canFailover`); its `hop` joins the failover list now (`listed: 'now'`, a failure that is
 * always told) or when the loop moves past it. `failed-after-commit`: a keep-alive stream was open,
 * so its answer can only be an SSE event. `refused`: nothing was sent.
 */
export type AttemptRecord = { target: Target; via: string | null; translated: string | null } & (
  | { kind: 'served'; answer: Extract<Answer, { kind: 'relay' }> }
  | {
      kind: 'failed';
      hop: FailoverHop | null;
      listed: 'now' | 'on-move';
      canFailover: boolean;
      answer: Answer;
      /** The upstream answer to drop when another candidate (or a hold) takes over. */
      drop: Observation | null;
    }
  | { kind: 'failed-after-commit'; hop: FailoverHop; answer: Answer }
  | { kind: 'refused'; reason: 'aborted' | 'unsupported' }
);

type Failed = Extract<AttemptRecord, { kind: 'failed' }>;

function failed(base: Base, fields: Omit<Failed, keyof Base | 'kind' | 'drop'>, drop: Observation | null = null) {
  return { ...base, kind: 'failed' as const, ...fields, drop };
}

type Base = Pick<AttemptRecord, 'target' | 'via' | 'translated'>;

/** The failover list as it stands with this attempt's own hop, for an error that names it. */
function withOwn(hops: readonly FailoverHop[], own: FailoverHop): FailoverHop[] {
  return [...hops, own];
}

/**
 * The record of one attempt from what it saw and what the learner made of it. `hops`: the
 * failover list before this attempt (for the errors that carry it in their details).
 */
export function recordOf(
  frame: RequestFrame,
  hops: readonly FailoverHop[],
  target: Target,
  seen: Seen,
  verdict: AttemptVerdict | null,
): AttemptRecord {
  const base: Base = { target, via: seen.via, translated: seen.translated };
  const name = target.connection.view.name;
  const o = seen.observation;
  switch (o.kind) {
    case 'served':
      // Literals, not spreads: a spread plus added keys costs ~1.5 µs per key on Node 20 (no cached
      // map transition) and was the largest self time on the served path (bench profile, issue 22).
      return {
        target,
        via: seen.via,
        translated: seen.translated,
        kind: 'served',
        answer: {
          kind: 'relay',
          target,
          upstream: o.upstream,
          held: o.held,
          tap: o.tap,
          watch: o.watch,
          secrets: o.secrets,
        },
      };
    case 'refused':
      return { ...base, kind: 'refused', reason: o.reason };
    case 'estimate':
      return failed(base, { hop: null, listed: 'now', canFailover: true, answer: estimatedCount(frame, target) });
    case 'untranslatable': {
      // Not this connection's fault: a candidate of the client's own format may still serve it.
      const hop = { connection: name, status: 400, reason: 'untranslatable' };
      const answer: Answer = { kind: 'error', error: o.error, connection: null, reason: 'untranslatable' };
      return failed(base, { hop, listed: 'now', canFailover: true, answer });
    }
    case 'credential':
      return credentialFailure(base, hops, o);
    case 'transport':
      return transportFailure(base, hops, o, verdict);
    case 'execution-timeout': {
      const error = executionTimeoutError(`${name}/${target.upstreamModel}`, o.executionMs);
      const hop = { connection: name, status: null, reason: 'execution_timeout' };
      return failed(base, {
        hop,
        listed: 'on-move',
        canFailover: true,
        answer: { kind: 'error', error, connection: null },
      });
    }
    case 'stream-error': {
      // Relayed as held when nothing else may serve: the client parses the error event itself.
      const hop = { connection: name, status: o.status, reason: verdict?.reason ?? 'upstream_error' };
      const answer: Answer = { ...o, kind: 'relay', target };
      return failed(base, { hop, listed: 'on-move', canFailover: verdict?.shouldFailover ?? true, answer }, o);
    }
    case 'error-response':
      return errorResponse(frame, base, o, verdict);
  }
}

/** A dead login is already recorded (needs_reauth); a refresh that failed for now is not. The next candidate may serve. */
function credentialFailure(
  base: Base,
  hops: readonly FailoverHop[],
  o: Extract<Observation, { kind: 'credential' }>,
): AttemptRecord {
  const name = base.target.connection.view.name;
  const hop = { connection: name, status: null, reason: o.reason };
  const message = redactSecrets(`${name}: ${o.message}`, secretStrings(base.target.connection.secret));
  const error: AppError = { code: 'upstream_error', message, status: 502, details: { failover: withOwn(hops, hop) } };
  return failed(base, { hop, listed: 'now', canFailover: true, answer: { kind: 'error', error, connection: null } });
}

/** An early failure (refused, reset, silent, empty) or a stream cut for trickling (WATCH-6). */
function transportFailure(
  base: Base,
  hops: readonly FailoverHop[],
  o: Extract<Observation, { kind: 'transport' }>,
  verdict: AttemptVerdict | null,
): AttemptRecord {
  const name = base.target.connection.view.name;
  const canFailover = verdict?.shouldFailover ?? true;
  if (o.failure === 'slow') {
    const hop = { connection: name, status: null, reason: 'slow' };
    const error: AppError = {
      code: 'upstream_timeout',
      message: `Every target failed; last: ${name} (${o.detail ?? 'too slow'})`,
      details: { failover: withOwn(hops, hop) },
    };
    const answer: Answer = { kind: 'error', error, connection: null, reason: 'upstream_too_slow' };
    return failed(base, { hop, listed: 'now', canFailover, answer });
  }
  const hop = {
    connection: name,
    status: null,
    reason: o.failure === 'empty_response' ? 'invalid_response' : o.failure,
  };
  const error = earlyFailureError(name, o.failure, o.detail, withOwn(hops, hop));
  return failed(base, { hop, listed: 'now', canFailover, answer: { kind: 'error', error, connection: null } });
}

/** An upstream error answer (a non-2xx, or a 2xx whose body is an error object): the next may serve, else the client gets it. */
function errorResponse(
  frame: RequestFrame,
  base: Base,
  o: Extract<Observation, { kind: 'error-response' }>,
  verdict: AttemptVerdict | null,
): AttemptRecord {
  const { target } = base;
  const name = target.connection.view.name;
  const status = o.upstream.statusCode;
  const reason = verdict?.reason ?? 'upstream_error';
  const hop = { connection: name, status, reason };
  if (frame.request.endpoint.name === 'count_tokens' && (status === 404 || status === 405)) {
    // An Anthropic-format upstream without count_tokens (PROD-10: not a failure): the next may count, else an estimate.
    return failed(base, { hop, listed: 'on-move', canFailover: true, answer: estimatedCount(frame, target) });
  }
  frame.keepAlive.stop();
  if (frame.keepAlive.committed) {
    // The client already has a 200 stream (it waited in the lane): the error can only be an SSE event now.
    const summary = summarizeUpstreamText(o.bodyText, headerValue(o.upstream.headers['content-type']));
    // The activity row tells the status the failure stands for, not the 200 the keep-alive sent.
    const error: AppError = { code: 'upstream_error', message: `${name} answered ${status}: ${summary}`, status };
    return { ...base, kind: 'failed-after-commit', hop, answer: { kind: 'error', error, connection: name, reason } };
  }
  const answer: Answer = {
    kind: 'upstream-error',
    target,
    upstream: o.upstream,
    body: o.body,
    status: verdict?.status ?? status,
    retryAfterMs: verdict?.retryAfterMs ?? null,
    secrets: o.secrets,
    reason,
  };
  return failed(base, { hop, listed: 'on-move', canFailover: verdict?.shouldFailover ?? true, answer }, o);
}
