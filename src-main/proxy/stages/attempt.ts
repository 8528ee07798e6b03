import type { AppError } from '../../../src-shared/contract/errors';
import type { FailoverHop } from '../../../src-shared/domain/request-log';
import type { UpstreamOperation } from '../../kernel/provider-adapter';
import type { Target } from '../../kernel/target';
import { createStreamWatchdog, type ChunkWatch } from '../../resilience/watchdog/stream-watchdog';
import { bridgeFor } from '../../translate/bridges';
import { bridgeRequest } from '../../translate/bridge-request';
import { bridgeResponse } from '../../translate/bridge-response';
import type { UpstreamAnswer } from '../../kernel/upstream-answer';
import type { Json } from '../../translate/translate-types';
import { readAnswerStart, type AnswerStart } from '../relay/answer-start';
import { earlyFailureError, type EarlyFailure } from './early-failure';
import { headerValue } from '../wire/header-value';
import { bodyForModel } from '../accept/parse-model-body';
import type { ProxyContext } from '../proxy-context';
import { ERROR_BODY_CAP, readUpstreamBody } from '../relay/read-upstream-body';
import { redactSecrets, secretListOf, secretStrings } from '../../kernel/redact-secrets';
import type { Admission } from '../../kernel/attempt-outcome';
import { withoutUnsignedThinking } from './unsigned-thinking';
import { summarizeUpstreamText } from '../relay/upstream-text';
import { createUsageTap, type UsageTap } from '../wire/usage-tap';
import { estimatedCount } from './count-estimate';
import type { RequestFrame } from './frame';
import { learnFailure, learnSuccess } from './learn';
import { sendWithHooks } from './send';

/** What the answer stage sends: an upstream answer to relay, an upstream error, or Leeway's own error. */
export type Answer =
  | {
      kind: 'relay';
      target: Target;
      /** The upstream's answer, or its translation into the client's format (issue 12). */
      upstream: UpstreamAnswer;
      held: Extract<AnswerStart, { kind: 'ready' }>;
      tap: UsageTap;
      /** The attempt's throughput watchdog, carried on into the relay (null when off). */
      watch: ChunkWatch | null;
      /** The connection's credentials, masked in whatever is relayed (issue 21 §5). */
      secrets: readonly string[];
    }
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
 * One attempt's outcome. Failover to the next candidate is possible only for
 * `failed-before-first-byte` (and only while nothing is committed); `answer` is what the client
 * gets when no candidate is left or the engines say not to fail over.
 */
export type AttemptOutcome =
  | { kind: 'served'; answer: Answer }
  /** `hop` is recorded when the request fails over (null: already recorded, as early failures always are). */
  | {
      kind: 'failed-before-first-byte';
      hop: FailoverHop | null;
      canFailover: boolean;
      answer: Answer;
      drop?: UpstreamAnswer;
    }
  /** `hop`: the failure as the failover list tells it (the answer is an SSE error event now). */
  | { kind: 'failed-after-commit'; hop: FailoverHop; answer: Answer }
  | { kind: 'refused'; reason: 'aborted' | 'unsupported' };

/**
 * The attempt stage: builds and sends the upstream request (provider hooks included), reads the
 * answer's start before anything is committed, and learns from the attempt once (resilience).
 */
export async function attemptCandidate(
  ctx: ProxyContext,
  frame: RequestFrame,
  target: Target,
  admission: Admission,
): Promise<AttemptOutcome> {
  const { request, parsed } = frame;
  const { endpoint } = request;
  const name = target.connection.view.name;
  // count_tokens is never translated: a connection that cannot count lets the next one try, and the
  // last gives an estimate (issue 12 §3) — never a 404 that makes Claude Code bench the model.
  const counting = endpoint.name === 'count_tokens';
  if (counting && target.connection.adapter.format !== 'anthropic')
    return { kind: 'failed-before-first-byte', hop: null, canFailover: true, answer: estimatedCount(frame, target) };
  // issue 12: another format goes through translate/; the same format keeps its bytes (null, one check).
  const bridge = counting ? null : bridgeFor(endpoint.wire, target.connection);
  frame.translated = bridge?.label ?? null;
  let body: Buffer;
  let requests: Json[] = [];
  if (bridge) {
    const reasoning = target.connection.view.kind === 'openai-compatible';
    const bridged = bridgeRequest(request.body, bridge, target.upstreamModel, reasoning);
    if (!bridged.ok) {
      // Not this connection's fault: a candidate of the client's own format may still serve it.
      frame.hops.push({ connection: name, status: 400, reason: 'untranslatable' });
      const answer: Answer = { kind: 'error', error: bridged.error, connection: null, reason: 'untranslatable' };
      return { kind: 'failed-before-first-byte', hop: null, canFailover: true, answer };
    }
    body = bridged.body;
    requests = bridged.requests;
  } else {
    body = bodyForModel(request.body, parsed, target.upstreamModel);
    // A conversation once served translated may carry unsigned thinking that Anthropic would refuse
    // (the body parse already looked for the mark: no second search of the whole body here).
    if (endpoint.wire === 'anthropic' && parsed.emptySignature) body = withoutUnsignedThinking(body) ?? body;
  }
  const operation = bridge?.operation ?? endpoint.operation;
  const hooks = ctx.hooks.forAttempt(target.connection, {
    startedAt: request.startedAt,
    responseTimeoutMs: frame.responseTimeoutMs,
  });
  // One literal with every field (no spread in the middle): the common shape stays one hidden class.
  const extraHeaders =
    bridge?.upstreamWire === 'anthropic' && request.req.headers['anthropic-version'] === undefined
      ? ANTHROPIC_VERSION
      : undefined;
  const result = await sendWithHooks(
    ctx.pools,
    hooks,
    {
      target,
      operation,
      search: bridge ? '' : request.search,
      clientHeaders: request.req.headers,
      body,
      extraHeaders,
      signal: frame.signal,
      headersTimeoutMs: frame.headersTimeoutMs,
      bodyTimeoutMs: frame.bodyTimeoutMs,
    },
    hooks
      ? { stream: parsed.stream, keepAlive: frame.keepAlive, keepAliveHeaders: { 'x-leeway-connection': name } }
      : null,
  );
  frame.servedVia = result.via;

  if (result.kind === 'failed') {
    if (result.reason === 'aborted') return { kind: 'refused', reason: 'aborted' }; // the client left: nothing to learn
    if (result.reason === 'unsupported') return { kind: 'refused', reason: 'unsupported' };
    if (result.reason === 'credential') {
      // A dead login is already recorded (needs_reauth) by the token manager; a refresh that
      // failed for now (token endpoint down) is not. Either way the next candidate may serve.
      frame.hops.push({ connection: name, status: null, reason: result.credentialReason ?? 'needs_reauth' });
      const message = redactSecrets(`${name}: ${result.message}`, secretStrings(target.connection.secret));
      const answer: Answer = {
        kind: 'error',
        error: { code: 'upstream_error', message, status: 502, details: { failover: frame.hops } },
        connection: null,
      };
      return { kind: 'failed-before-first-byte', hop: null, canFailover: true, answer };
    }
    return earlyFailure(ctx, frame, target, admission, operation, result.reason, null);
  }

  const raw = result.response;
  if (raw.statusCode >= 200 && raw.statusCode < 300) {
    const upstream = bridge
      ? bridgeResponse(raw, bridge, requests, { clientModel: parsed.model, idSeed: idSeedOf(request.startedAt) })
      : raw;
    // Nothing is committed to the client until the answer has really begun (and, for JSON, parses).
    const contentType = headerValue(upstream.headers['content-type']);
    const tap = createUsageTap(contentType);
    const sse = contentType?.includes('text/event-stream') ? endpoint.wire : null;
    const watch = sse === null ? null : watchFor(ctx, frame.bodyTimeoutMs);
    const start = await readAnswerStart(upstream, sse, tap, frame.signal, ctx.now, watch);
    if (start.kind === 'aborted') return { kind: 'refused', reason: 'aborted' };
    if (start.kind === 'failed')
      return start.failure === 'slow'
        ? slowFailure(ctx, frame, target, admission, operation, start.detail)
        : earlyFailure(ctx, frame, target, admission, operation, start.failure, start.detail);
    if (start.kind === 'error_body') {
      // A 200 whose body is an error object: the status it stands for, learned and relayed as such.
      const secrets = secretStrings(target.connection.secret, result.sentSecret);
      const response = { ...upstream, statusCode: start.status };
      return failedWithError(ctx, target, admission, operation, frame, response, start.body, secrets);
    }
    if (start.kind === 'stream_error') {
      const bodyText = redactSecrets(start.bodyText, secretStrings(target.connection.secret, result.sentSecret));
      const verdict = learnFailure(
        ctx,
        target,
        admission,
        operation,
        { kind: 'response', status: start.status, headers: upstream.headers, bodyText },
        request.body,
      );
      // Relayed as held when nothing else may serve: the client parses the error event itself.
      const secrets = secretListOf(target.connection.secret, result.sentSecret);
      const answer: Answer = { kind: 'relay', target, upstream, held: start.held, tap, watch, secrets };
      return {
        kind: 'failed-before-first-byte',
        hop: { connection: name, status: start.status, reason: verdict.reason },
        canFailover: verdict.shouldFailover,
        answer,
        drop: upstream,
      };
    }
    learnSuccess(ctx, target, admission);
    const secrets = secretListOf(target.connection.secret, result.sentSecret);
    return { kind: 'served', answer: { kind: 'relay', target, upstream, held: start, tap, watch, secrets } };
  }

  const bodyBytes = (await readUpstreamBody(raw.body, ERROR_BODY_CAP, frame.errorBodyTimeoutMs)) ?? Buffer.alloc(0);
  if (frame.signal.aborted) return { kind: 'refused', reason: 'aborted' };
  const secrets = secretStrings(target.connection.secret, result.sentSecret);
  return failedWithError(ctx, target, admission, operation, frame, raw, bodyBytes, secrets, result.wallResetAt);
}

/**
 * An upstream error answer (a non-2xx, or a 2xx whose body is an error object), learned once; the
 * next candidate may serve it, else the client gets it in its own format.
 */
function failedWithError(
  ctx: ProxyContext,
  target: Target,
  admission: Admission,
  operation: UpstreamOperation,
  frame: RequestFrame,
  upstream: UpstreamAnswer,
  bodyBytes: Buffer,
  /** The connection's credentials: an upstream that echoes one must not carry it into the client, the log or the UI. */
  secrets: readonly string[],
  wallResetAt: number | null = null,
): AttemptOutcome {
  const name = target.connection.view.name;
  const counting = frame.request.endpoint.name === 'count_tokens';
  const bodyText = redactSecrets(bodyBytes.toString('utf8'), secrets);
  const verdict = learnFailure(
    ctx,
    target,
    admission,
    operation,
    {
      kind: 'response',
      status: upstream.statusCode,
      headers: upstream.headers,
      bodyText,
      ...(wallResetAt === null ? {} : { cooldownUntil: wallResetAt }),
    },
    frame.request.body,
  );
  if (counting && (upstream.statusCode === 404 || upstream.statusCode === 405)) {
    // An Anthropic-format upstream without count_tokens (PROD-10: not a failure): the next may count, else an estimate.
    const hop = { connection: name, status: upstream.statusCode, reason: verdict.reason };
    return { kind: 'failed-before-first-byte', hop, canFailover: true, answer: estimatedCount(frame, target) };
  }
  frame.keepAlive.stop();
  if (frame.keepAlive.committed) {
    // The client already has a 200 stream (it waited in the lane): the error can only be an SSE event now.
    const summary = summarizeUpstreamText(bodyText, headerValue(upstream.headers['content-type']));
    const error: AppError = {
      code: 'upstream_error',
      message: `${name} answered ${upstream.statusCode}: ${summary}`,
      // The activity row tells the status the failure stands for, not the 200 the keep-alive sent.
      status: upstream.statusCode,
    };
    const hop = { connection: name, status: upstream.statusCode, reason: verdict.reason };
    return {
      kind: 'failed-after-commit',
      hop,
      answer: { kind: 'error', error, connection: name, reason: verdict.reason },
    };
  }
  const status = verdict.status ?? upstream.statusCode;
  const answer: Answer = {
    kind: 'upstream-error',
    target,
    upstream,
    body: bodyBytes,
    status,
    retryAfterMs: verdict.retryAfterMs,
    secrets,
    reason: verdict.reason,
  };
  return {
    kind: 'failed-before-first-byte',
    hop: { connection: name, status: upstream.statusCode, reason: verdict.reason },
    canFailover: verdict.shouldFailover,
    answer,
  };
}

/** An early failure, learned once. */
function earlyFailure(
  ctx: ProxyContext,
  frame: RequestFrame,
  target: Target,
  admission: Admission,
  operation: UpstreamOperation,
  failure: EarlyFailure,
  detail: string | null,
): AttemptOutcome {
  const name = target.connection.view.name;
  const verdict = learnFailure(ctx, target, admission, operation, { kind: 'transport', failure });
  frame.hops.push({
    connection: name,
    status: null,
    reason: failure === 'empty_response' ? 'invalid_response' : failure,
  });
  const answer: Answer = {
    kind: 'error',
    error: earlyFailureError(name, failure, detail, frame.hops),
    connection: null,
  };
  return { kind: 'failed-before-first-byte', hop: null, canFailover: verdict.shouldFailover, answer };
}

/** WATCH-6: the watchdog cut a stream before the client saw a byte: learned like a stall, and the next target may serve. */
function slowFailure(
  ctx: ProxyContext,
  frame: RequestFrame,
  target: Target,
  admission: Admission,
  operation: UpstreamOperation,
  detail: string,
): AttemptOutcome {
  const name = target.connection.view.name;
  const verdict = learnFailure(ctx, target, admission, operation, { kind: 'transport', failure: 'timeout' });
  frame.hops.push({ connection: name, status: null, reason: 'slow' });
  const error: AppError = {
    code: 'upstream_timeout',
    message: `Every target failed; last: ${name} (${detail})`,
    details: { failover: frame.hops },
  };
  const answer: Answer = { kind: 'error', error, connection: null, reason: 'upstream_too_slow' };
  return { kind: 'failed-before-first-byte', hop: null, canFailover: verdict.shouldFailover, answer };
}

/** One boolean check per stream when the watchdog is off (WATCH-5); else a fresh meter with the proxy's clock. */
function watchFor(ctx: ProxyContext, idleMs: number): ChunkWatch | null {
  const settings = ctx.throughputWatchdog?.();
  const watchdog = settings?.enabled ? createStreamWatchdog(settings, idleMs) : null;
  return watchdog ? (chunk) => watchdog.push(chunk, ctx.now()) : null;
}

/** Anthropic requires the version header; an OpenAI or Responses client never sends one. */
const ANTHROPIC_VERSION: Record<string, string> = { 'anthropic-version': '2023-06-01' };

let idCounter = 0;
/** Ids a translated answer needs and the upstream did not give: unique per process, no crypto per request. */
function idSeedOf(startedAt: number): string {
  idCounter = (idCounter + 1) % 1_000_000;
  return `${startedAt.toString(36)}${idCounter.toString(36)}`;
}
