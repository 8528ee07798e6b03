import type { UpstreamOperation } from '../../kernel/provider-adapter';
import type { RequestAttempt, SessionPinMark } from '../../../src-shared/domain/request-log';
import { learnServed, type PinChange } from '../../routing/affinity/pin-learn';
import type { Target } from '../../kernel/target';
import type { ProxyContext } from '../proxy-context';
import type { RelayOutcome } from '../relay/relay';
import type { Admission, AttemptOutcome as ResilienceOutcome, AttemptVerdict } from '../../kernel/attempt-outcome';
import type { Answer } from './attempt';
import type { RequestFrame } from './frame';
import type { Plan } from './plan';

type Candidates = Extract<Plan, { kind: 'candidates' }>;

/** How a request ended, for the activity log. */
export interface Ended {
  connection: string | null;
  status: number;
  outcome: RelayOutcome | null;
  errorCode: string | null;
}

/** One attempt's failure, told to the resilience engine exactly once; its verdict says whether to fail over. */
export function learnFailure(
  ctx: ProxyContext,
  target: Target,
  admission: Admission,
  operation: UpstreamOperation,
  outcome: ResilienceOutcome,
  /** The client's body, for ROUTE-4's tool count when the upstream refused the request's tools. */
  body: Buffer | null = null,
): AttemptVerdict {
  ctx.roundRobin.failed(target, outcome, ctx.now(), body); // issue 11: strategy memory (health, ROUTE-4, ROUTE-5)
  return ctx.resilience.learnFailure(target, admission, operation, outcome, ctx.now());
}

export function learnSuccess(ctx: ProxyContext, target: Target, admission: Admission): void {
  ctx.resilience.learnSuccess(target, admission, ctx.now());
}

/** The combo's strategy made this pick (no pin decided it): the round-robin memory moves on. */
export function learnPick(ctx: ProxyContext, plan: Candidates, target: Target): void {
  if (plan.combo && plan.pin?.decided !== target.connection.view.id)
    ctx.roundRobin.picked(plan.combo, target, plan.candidates);
}

/**
 * A connection served the session's request: create, extend (AFF-8) or move (AFF-6) its pin in
 * memory; the write reaches SQLite with the core's next flush. Returns whether the pin decided.
 */
export function learnPin(ctx: ProxyContext, frame: RequestFrame, plan: Candidates, target: Target): boolean {
  const pin = plan.pin;
  if (!pin) return false;
  const id = target.connection.view.id;
  const change = learnServed(pin.stored, pin.scope, id, ctx.settings().sessionAffinityTtlMs, ctx.now());
  if (change.kind !== 'disabled') ctx.affinity.put(change.pin, pin.key);
  frame.sessionPin = PIN_MARK[change.kind];
  return pin.decided === id;
}

const PIN_MARK: Record<PinChange['kind'], SessionPinMark | null> = {
  disabled: null,
  created: 'new',
  extended: 'kept',
  moved: 'moved',
};

/** The header a served request a pool covers carries: whether its key was penalized (QPIPE-7). */
export const QUOTA_HEADER = 'x-leeway-quota';

/**
 * Before the answer: a request a pool covers says `x-leeway-quota: penalized|ok` (merged into its
 * headers); one served elsewhere because its pool's connection was demoted says `penalized`.
 */
export function markQuota(frame: RequestFrame, target: Target): void {
  const mark = frame.quota;
  const id = target.connection.view.id;
  // A keep-alive stream already sent its headers: nothing more can be said there.
  if (!mark || frame.request.res.headersSent) return;
  // Served outside the key's pool because its pool's connection was demoted: the penalty decided the route.
  if (mark.covered.has(id)) frame.quotaHeader = mark.penalized.has(id) ? 'penalized' : 'ok';
  else if (mark.penalized.size > 0) frame.quotaHeader = 'penalized';
}

/**
 * After the answer was sent (QPIPE-4/5): the served response's saturation headers and its usage go
 * to the quota engine, which writes them on a later turn of the loop; nothing here is awaited.
 */
export function learnQuota(ctx: ProxyContext, frame: RequestFrame, target: Target, answer: Answer, ended: Ended): void {
  if (answer.kind !== 'relay') return;
  ctx.roundRobin.served(target, answer.upstream.headers, ended.outcome?.ttfbMs ?? null, ctx.now()); // issue 11: strategy memory
  ctx.quota.record(
    frame.request.key.id,
    target.connection.view.id,
    { usage: ended.outcome?.usage ?? null, model: target.upstreamModel, headers: answer.upstream.headers },
    ctx.now(),
  );
}

/**
 * The request's row in the activity log; buffered, written by the core's timer. `attempts` is
 * every try in order (issue 13 §3); the model sent upstream is the last one's.
 */
export function recordRequest(
  ctx: ProxyContext,
  frame: RequestFrame,
  model: string,
  stream: boolean,
  ended: Ended | null,
  attempts: RequestAttempt[] = [],
): void {
  const { request } = frame;
  const usage = ended?.outcome?.usage;
  ctx.record({
    ts: request.startedAt,
    keyName: request.key.name,
    apiFormat: request.endpoint.format,
    endpoint: request.endpoint.name,
    model,
    connection: ended?.connection ?? null,
    status: ended ? ended.status : 499,
    stream,
    latencyMs: ctx.now() - request.startedAt,
    ttfbMs: ended?.outcome?.ttfbMs ?? null,
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
    cacheReadTokens: usage?.cacheReadTokens ?? null,
    cacheWriteTokens: usage?.cacheWriteTokens ?? null,
    failover: frame.hops,
    errorCode: ended ? ended.errorCode : 'client_closed',
    servedVia: frame.servedVia,
    sessionPin: frame.sessionPin,
    translated: frame.translated,
    queuedMs: frame.queuedMs > 0 ? Math.round(frame.queuedMs) : null,
    upstreamModel: attempts.at(-1)?.upstreamModel ?? null,
    attempts,
  });
}
