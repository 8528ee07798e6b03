import type { SessionPinMark } from '../../../src-shared/domain/request-log';
import type { Admission, AttemptVerdict, UpstreamOutcome } from '../../kernel/attempt-outcome';
import type { Target } from '../../kernel/target';
import { adapterFor } from '../../providers/registry';
import { learnServed, type PinChange } from '../../routing/affinity/pin-learn';
import type { ProxyContext } from '../proxy-context';
import type { RelayOutcome } from '../relay/relay';
import type { Seen } from './attempt';
import type { CandidatesPlan } from './plan';

/*
 * The learner (ARCHITECTURE §2, step 6): the one place a request's attempts are learned from. Each
 * fact is normalised once and fanned out to every engine that wants it: resilience (cooldowns,
 * lockouts, breakers), the combo strategies' memory, the quota engine and the session's pin.
 */

/** What a failed attempt tells the engines, or null when it is nobody's failure to learn. */
function outcomeOf(seen: Seen, target: Target, now: number): UpstreamOutcome | null {
  const o = seen.observation;
  // The connection's adapter reads the response once (issue 22 step 3); the engines take the value.
  const read = (status: number, headers: Record<string, string | string[] | undefined>, body: string) =>
    adapterFor(target.connection.view.kind).signals(status, headers, body, now);
  switch (o.kind) {
    case 'error-response': {
      const status = o.upstream.statusCode;
      const signals = read(status, o.upstream.headers, o.bodyText);
      return {
        kind: 'response',
        status,
        headers: o.upstream.headers,
        bodyText: o.bodyText,
        signals,
        ...(o.wallResetAt === null ? {} : { cooldownUntil: o.wallResetAt }),
      };
    }
    case 'stream-error': {
      const signals = read(o.status, o.upstream.headers, o.bodyText);
      return { kind: 'response', status: o.status, headers: o.upstream.headers, bodyText: o.bodyText, signals };
    }
    case 'transport':
      // WATCH-6: a stream cut for trickling before its first event is learned like a stall.
      return { kind: 'transport', failure: o.failure === 'slow' ? 'timeout' : o.failure };
    default:
      return null;
  }
}

/**
 * Learns one attempt exactly once: a success clears what a failure set; a failure sets it and comes
 * back as the resilience verdict (fail over? what status, what Retry-After?). Null when there is
 * nothing to learn: no answer (refused, estimated, a local limit) or a failure already recorded
 * elsewhere (a dead login), or not the connection's fault (untranslatable).
 */
export function learnAttempt(
  ctx: ProxyContext,
  target: Target,
  admission: Admission,
  seen: Seen,
  /** The client's body, for ROUTE-4's tool count when the upstream refused the request's tools. */
  body: Buffer,
): AttemptVerdict | null {
  if (seen.observation.kind === 'served') {
    ctx.engines.resilience.learnSuccess(target, admission, ctx.now());
    return null;
  }
  const now = ctx.now();
  const outcome = outcomeOf(seen, target, now);
  if (outcome === null) return null;
  ctx.engines.roundRobin.failed(target, outcome, now, body); // issue 11: strategy memory (health, ROUTE-4, ROUTE-5)
  return ctx.engines.resilience.learnFailure(target, admission, seen.operation, outcome, now);
}

/** The combo's strategy made this pick (no pin decided it): the round-robin memory moves on. */
export function learnPick(ctx: ProxyContext, plan: CandidatesPlan, target: Target): void {
  if (plan.combo && plan.pin?.decided !== target.connection.view.id)
    ctx.engines.roundRobin.picked(plan.combo, target, plan.candidates);
}

const PIN_MARK: Record<PinChange['kind'], SessionPinMark | null> = {
  disabled: null,
  created: 'new',
  extended: 'kept',
  moved: 'moved',
};

/**
 * A connection served the session's request: create, extend (AFF-8) or move (AFF-6) its pin in
 * memory; the write reaches SQLite with the core's next flush. Says whether the pin decided.
 */
export function learnPin(
  ctx: ProxyContext,
  plan: CandidatesPlan,
  target: Target,
): { pinned: boolean; mark: SessionPinMark | null } {
  const pin = plan.pin;
  if (!pin) return NOT_PINNED;
  const id = target.connection.view.id;
  const change = learnServed(pin.stored, pin.scope, id, ctx.config.settings().sessionAffinityTtlMs, ctx.now());
  if (change.kind !== 'disabled') ctx.sessions.affinity.put(change.pin, pin.key);
  return { pinned: pin.decided === id, mark: PIN_MARK[change.kind] };
}

const NOT_PINNED = { pinned: false, mark: null } as const;

/**
 * After a served answer was sent (QPIPE-4/5): its saturation headers and usage go to the quota
 * engine and the strategies' memory, which write them on a later turn of the loop; nothing here
 * is awaited.
 */
export function learnAnswered(
  ctx: ProxyContext,
  keyId: string,
  target: Target,
  headers: Record<string, string | string[] | undefined>,
  outcome: RelayOutcome | null,
): void {
  const now = ctx.now();
  // Read once by the connection's adapter (issue 22 step 3); the quota runtime keeps its windows once
  // (window-readings.ts), for its own counters and for the strategies' ranking.
  const signals = adapterFor(target.connection.view.kind).signals(200, headers, null, now);
  ctx.engines.roundRobin.served(target, outcome?.ttfbMs ?? null); // issue 11: strategy memory
  ctx.engines.quota.record(
    keyId,
    target.connection.view.id,
    { usage: outcome?.usage ?? null, model: target.upstreamModel, windows: signals.windows },
    now,
  );
}
