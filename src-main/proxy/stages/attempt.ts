import type { AppError } from '../../../src-shared/contract/errors';
import type { UpstreamOperation } from '../../kernel/provider-adapter';
import { redactSecrets, secretListOf } from '../../kernel/redact-secrets';
import type { Target } from '../../kernel/target';
import { capabilitiesOf } from '../../kernel/provider-capabilities';
import type { UpstreamAnswer } from '../../kernel/upstream-answer';
import { createStreamWatchdog, type ChunkWatch } from '../../resilience/watchdog/stream-watchdog';
import { bridgeRequest } from '../../translate/bridge-request';
import { bridgeResponse } from '../../translate/bridge-response';
import { bridgeFor, type Bridge } from '../../translate/bridges';
import type { Json } from '../../translate/translate-types';
import { bodyForModel } from '../accept/parse-model-body';
import type { ProxyContext } from '../proxy-context';
import { readAnswerStart, type AnswerStart } from '../relay/answer-start';
import { ERROR_BODY_CAP, readUpstreamBody } from '../relay/read-upstream-body';
import { headerValue } from '../wire/header-value';
import { createUsageTap, type UsageTap } from '../wire/usage-tap';
import type { EarlyFailure } from './early-failure';
import type { RequestFrame } from './frame';
import { sendWithHooks, type SendResult } from './send';
import { holdInputOf } from '../held/hold-input';

/** A provider hook's wait (the Claude lane) is listed, cancellable, never skipped: the hook sets the pace. */
const NO_SKIP = { goNow: false, release: false };
import { withoutUnsignedThinking } from './unsigned-thinking';

type ReadyStart = Extract<AnswerStart, { kind: 'ready' }>;

/** A 2xx answer that has really begun: what the relay needs to send it on. */
export interface Begun {
  upstream: UpstreamAnswer;
  held: ReadyStart;
  tap: UsageTap;
  /** The attempt's throughput watchdog, carried on into the relay (null when off). */
  watch: ChunkWatch | null;
  /** The credentials this request carried, masked in whatever is relayed (issue 21 §5). */
  secrets: readonly string[];
}

/**
 * What one attempt saw of its upstream, before anything is learned or decided: the request loop
 * hands it to the learner (stages/learner.ts) and then turns both into an attempt record.
 */
export type Observation =
  | ({ kind: 'served' } & Begun)
  /** The stream's first event is an error (Anthropic's `overloaded_error` right after the 200); its text masked. */
  | ({ kind: 'stream-error'; status: number; bodyText: string } & Begun)
  /** A non-2xx, or a 2xx whose whole body is an error object (its status restated, issue 21 §1). */
  | {
      kind: 'error-response';
      upstream: UpstreamAnswer;
      body: Buffer;
      /** The body as text with every secret the connection sent masked (for the learner and the UI). */
      bodyText: string;
      secrets: readonly string[];
      /** An announced end of a usage wall nobody handled: the connection cools until then. */
      wallResetAt: number | null;
    }
  /** Nothing usable arrived: refused, reset, silent, empty or too slow (WATCH-6) before the answer began. */
  | { kind: 'transport'; failure: EarlyFailure | 'slow'; detail: string | null }
  /** The connection's own credential cannot be used now (a dead login is already recorded). */
  | { kind: 'credential'; message: string; reason: 'needs_reauth' | 'refresh_failed' }
  /** Not this connection's fault: the request cannot be put in its format. */
  | { kind: 'untranslatable'; error: AppError }
  /** count_tokens on a connection that cannot count: the upstream is never asked (issue 12 §3). */
  | { kind: 'estimate' }
  /** QUEUE-4/5: the queue's execution backstop ended it; a local limit, never the connection's fault. */
  | { kind: 'execution-timeout'; executionMs: number }
  | { kind: 'refused'; reason: 'aborted' | 'unsupported' };

/** An observation with what the attempt did on the way. */
export interface Seen {
  observation: Observation;
  operation: UpstreamOperation;
  /** `low-priority-accepted`, `limit-reset` … when a provider hook re-sent the request. */
  via: string | null;
  /** `client->upstream` when translated (issue 12); null: same format. */
  translated: string | null;
}

/** The body to send and how to read the answer: same format keeps the bytes, another goes through translate/. */
interface Prepared {
  body: Buffer;
  bridge: Bridge | null;
  requests: Json[];
  operation: UpstreamOperation;
}

/** Anthropic requires the version header; an OpenAI or Responses client never sends one. */
const ANTHROPIC_VERSION: Record<string, string> = { 'anthropic-version': '2023-06-01' };

function prepare(frame: RequestFrame, target: Target): Prepared | { error: AppError; bridge: Bridge } {
  const { request, parsed } = frame;
  const { endpoint } = request;
  // count_tokens is never translated (issue 12 §3): see `estimate`.
  const bridge = endpoint.name === 'count_tokens' ? null : bridgeFor(endpoint.wire, target.connection);
  if (bridge) {
    const reasoning = capabilitiesOf(target.connection.view.kind).takesReasoningContent;
    const stream = endpoint.wire === 'gemini' ? parsed.stream : undefined;
    const bridged = bridgeRequest(request.body, bridge, target.upstreamModel, reasoning, stream);
    if (!bridged.ok) return { error: bridged.error, bridge };
    return {
      body: bridged.body,
      bridge,
      requests: bridged.requests,
      operation: geminiOperation(bridge, parsed.stream),
    };
  }
  // A Gemini body names no model: the model goes in the URL (the adapter's path).
  if (endpoint.wire === 'gemini')
    return { body: request.body, bridge: null, requests: [], operation: endpoint.operation };
  let body = bodyForModel(request.body, parsed, target.upstreamModel);
  // A conversation once served translated may carry unsigned thinking that Anthropic would refuse
  // (the body parse already looked for the mark: no second search of the whole body here).
  if (endpoint.wire === 'anthropic' && parsed.emptySignature) body = withoutUnsignedThinking(body) ?? body;
  return { body, bridge: null, requests: [], operation: endpoint.operation };
}

/** Toward a Gemini connection the URL says whether the answer streams (issue 23). */
function geminiOperation(bridge: Bridge, stream: boolean): UpstreamOperation {
  return bridge.operation === 'generate_content' && stream ? 'stream_generate_content' : bridge.operation;
}

function seen(observation: Observation, operation: UpstreamOperation, via: string | null, bridge: Bridge | null): Seen {
  return { observation, operation, via, translated: bridge?.label ?? null };
}

/**
 * The attempt stage: builds and sends the upstream request (provider hooks included) and reads the
 * answer's start before anything is committed. It learns nothing and decides nothing: it says what
 * it saw. `signal` is the request's, or the queue backstop's (QUEUE-4).
 */
export async function attemptCandidate(
  ctx: ProxyContext,
  frame: RequestFrame,
  target: Target,
  signal: AbortSignal,
): Promise<Seen> {
  const { endpoint } = frame.request;
  if (endpoint.name === 'count_tokens' && target.connection.adapter.format !== 'anthropic')
    return seen({ kind: 'estimate' }, endpoint.operation, null, null);
  const prepared = prepare(frame, target);
  if ('error' in prepared)
    return seen({ kind: 'untranslatable', error: prepared.error }, endpoint.operation, null, prepared.bridge);
  const result = await send(ctx, frame, target, prepared, signal);
  const { operation, bridge } = prepared;
  if (result.kind === 'failed') return seen(failedSend(result), operation, result.via ?? null, bridge);
  const raw = result.response;
  const secrets = secretListOf(target.connection.secret, result.sentSecret);
  if (raw.statusCode < 200 || raw.statusCode >= 300) {
    const body = (await readUpstreamBody(raw.body, ERROR_BODY_CAP, frame.errorBodyTimeoutMs)) ?? Buffer.alloc(0);
    if (signal.aborted) return seen({ kind: 'refused', reason: 'aborted' }, operation, result.via ?? null, bridge);
    const observed: Observation = {
      kind: 'error-response',
      upstream: raw,
      body,
      bodyText: redactSecrets(body.toString('utf8'), secrets),
      secrets,
      wallResetAt: result.wallResetAt ?? null,
    };
    return seen(observed, operation, result.via ?? null, bridge);
  }
  const upstream = bridge
    ? bridgeResponse(raw, bridge, prepared.requests, {
        clientModel: frame.parsed.model,
        idSeed: idSeedOf(frame.request.startedAt),
      })
    : raw;
  // Nothing is committed to the client until the answer has really begun (and, for JSON, parses).
  // Read here, not in a function of its own: one async frame per attempt (see candidates.ts).
  const contentType = headerValue(upstream.headers['content-type']);
  const tap = createUsageTap(contentType);
  const sse = contentType?.includes('text/event-stream') ? frame.request.endpoint.wire : null;
  const watch = sse === null ? null : watchFor(ctx, frame.bodyTimeoutMs);
  const start = await readAnswerStart(upstream, { sse, tap, signal, now: ctx.now, watch });
  return seen(observationOf(start, upstream, tap, watch, secrets), operation, result.via ?? null, bridge);
}

function send(
  ctx: ProxyContext,
  frame: RequestFrame,
  target: Target,
  prepared: Prepared,
  signal: AbortSignal,
): Promise<SendResult> {
  const { request, parsed } = frame;
  const hooks = ctx.upstream.hooks.forAttempt(target.connection, {
    startedAt: request.startedAt,
    responseTimeoutMs: frame.responseTimeoutMs,
  });
  const extraHeaders =
    prepared.bridge?.upstreamWire === 'anthropic' && request.req.headers['anthropic-version'] === undefined
      ? ANTHROPIC_VERSION
      : undefined;
  // One literal with every field (no spread in the middle): the common shape stays one hidden class.
  return sendWithHooks(
    ctx.upstream.pools,
    hooks,
    {
      target,
      operation: prepared.operation,
      search: prepared.bridge ? '' : request.search,
      clientHeaders: request.req.headers,
      body: prepared.body,
      extraHeaders,
      signal,
      headersTimeoutMs: frame.headersTimeoutMs,
      bodyTimeoutMs: frame.bodyTimeoutMs,
    },
    hooks
      ? {
          stream: parsed.stream,
          keepAlive: frame.keepAlive,
          keepAliveHeaders: { 'x-leeway-connection': target.connection.view.name },
          held: {
            board: ctx.host.inFlight.held,
            request: frame.signal,
            input: (what: string, until: number) => holdInputOf(frame, 'lane', what, until, NO_SKIP),
            now: ctx.now,
          },
        }
      : null,
  );
}

function failedSend(result: Extract<SendResult, { kind: 'failed' }>): Observation {
  switch (result.reason) {
    case 'aborted':
    case 'unsupported':
      return { kind: 'refused', reason: result.reason };
    case 'credential':
      return { kind: 'credential', message: result.message, reason: result.credentialReason ?? 'needs_reauth' };
    case 'timeout':
    case 'unreachable':
      return { kind: 'transport', failure: result.reason, detail: null };
  }
}

/** What the answer's start says: served, a stream that opened with an error, an error body, or no answer. */
function observationOf(
  start: AnswerStart,
  upstream: UpstreamAnswer,
  tap: UsageTap,
  watch: ChunkWatch | null,
  secrets: readonly string[],
): Observation {
  switch (start.kind) {
    case 'aborted':
      return { kind: 'refused', reason: 'aborted' };
    case 'failed':
      return { kind: 'transport', failure: start.failure, detail: start.detail };
    case 'error_body':
      // A 200 whose body is an error object: the status it stands for, learned and relayed as such.
      return {
        kind: 'error-response',
        upstream: { ...upstream, statusCode: start.status },
        body: start.body,
        bodyText: redactSecrets(start.body.toString('utf8'), secrets),
        secrets,
        wallResetAt: null,
      };
    case 'stream_error':
      return {
        kind: 'stream-error',
        status: start.status,
        bodyText: redactSecrets(start.bodyText, secrets),
        upstream,
        held: start.held,
        tap,
        watch,
        secrets,
      };
    case 'ready':
      return { kind: 'served', upstream, held: start, tap, watch, secrets };
  }
}

/** One boolean check per stream when the watchdog is off (WATCH-5); else a fresh meter with the proxy's clock. */
function watchFor(ctx: ProxyContext, idleMs: number): ChunkWatch | null {
  const settings = ctx.config.throughputWatchdog?.();
  const watchdog = settings?.enabled ? createStreamWatchdog(settings, idleMs) : null;
  return watchdog ? (chunk) => watchdog.push(chunk, ctx.now()) : null;
}

let idCounter = 0;
/** Ids a translated answer needs and the upstream did not give: unique per process, no crypto per request. */
function idSeedOf(startedAt: number): string {
  idCounter = (idCounter + 1) % 1_000_000;
  return `${startedAt.toString(36)}${idCounter.toString(36)}`;
}

/** Drops an upstream answer nobody will relay (a failover, a hold, an expired backstop). */
export function dropObserved(observation: Observation): void {
  if (observation.kind === 'served' || observation.kind === 'stream-error' || observation.kind === 'error-response')
    observation.upstream.body.destroy();
}
