import type { UpstreamOperation } from '../kernel/provider-adapter';
import type { AttemptVerdict, UpstreamOutcome } from '../kernel/attempt-outcome';
import type { ProviderIdentity } from '../kernel/provider-identity';
import type { Target } from '../kernel/target';
import { resetBreaker, type BreakerState } from './breaker/breaker-state';
import { recordFailure } from './breaker/breaker-transitions';
import { isRuleConnectionQuotaScope, type Classification } from './classify/classification';
import { classifyOutcome } from './classify/classify';
import { HEALTHY } from './cooldown/connection-health';
import { recordConnectionFailure } from './cooldown/record-connection-failure';
import { recordModelFailure } from './lockout/record-model-failure';
import { cooldownSettingsFor } from './connection-overrides';
import type { EgressHooks } from './egress/egress-runtime';
import { coolSibling, EGRESS_FALLBACK_COOLDOWN_MS, egressLockApplies } from './egress/engine/egress-lock';
import type { ResiliencePersistence, ResilienceState } from './resilience-state';
import { recordConnectionFailure as gateConnectionFailure, recordProviderFailure } from './window-gate/window-gate';

/** What learning a failure writes to: the engine's state, its persistence, the egress hooks when on. */
export interface FailureScope {
  state: ResilienceState;
  repos: ResiliencePersistence;
  egress: EgressHooks | null;
  /** Persists and tells the UI, once per learned failure. */
  onChange: () => void;
}

const CLOSED: BreakerState = resetBreaker();

/** What charging the connection found: how long it cools (or the absorbed retry), and until when. */
interface Cooled {
  retryMs: number | null;
  until: number | null;
}

const NOT_COOLED: Cooled = { retryMs: null, until: null };

/**
 * The learn step for one failed attempt: classify once, then charge the narrowest scope (COOL-14):
 * the provider's breaker and window gate, the connection (cooldown, terminal state, EGRESS-6/7 lock
 * of its IP siblings) or the model on it (lockout); then `onChange` once.
 */
export function learnFailure(
  scope: FailureScope,
  target: Target,
  probe: boolean,
  operation: UpstreamOperation,
  outcome: UpstreamOutcome,
  now: number,
): AttemptVerdict {
  // count_tokens is optional upstream: a 404/405 there says nothing about the connection.
  if (operation === 'count_tokens' && outcome.kind === 'response' && (outcome.status === 404 || outcome.status === 405))
    return { shouldFailover: true, status: outcome.status, retryAfterMs: null, reason: 'unsupported' };
  const { state, egress } = scope;
  const c = target.connection.view;
  const provider = target.connection.provider;
  const classification = classifyOutcome(outcome, {
    provider,
    model: target.upstreamModel,
    connection: c.name,
    operatorRules: state.settings.providerErrorRules,
    now,
  });
  chargeProvider(scope, provider, classification, probe, now);
  // EGRESS-6/7: an IP-bucketed upstream's 429 is a connection cooldown (never a model lock), combo or not.
  const egressLock = egress !== null && egressLocks(egress, target, provider, classification);
  const cooled =
    egressLock || chargesConnection(classification)
      ? chargeConnection(scope, target, provider, classification, outcome, now)
      : NOT_COOLED;
  if (egress !== null && egressLock) {
    lockSiblings(scope, egress, c.name, {
      until: cooled.until ?? now + EGRESS_FALLBACK_COOLDOWN_MS,
      reason: classification.reason,
      service: egress.serviceOf(provider),
      now,
    });
  } else if (classification.scope !== 'request' && classification.status !== null) {
    chargeModel(state, target, provider, classification, now);
  }
  scope.onChange();
  return {
    shouldFailover: classification.shouldFailover,
    status: classification.status,
    retryAfterMs: classification.announceRetryAfterMs ?? classification.retryHint?.ms ?? cooled.retryMs,
    reason: classification.reason,
  };
}

function chargesConnection(classification: Classification): boolean {
  return classification.scope === 'connection' || classification.terminal !== null || classification.requestRejected;
}

/** The provider's breaker (persisted when the failure counts) and its window gate. */
function chargeProvider(
  { state, repos }: FailureScope,
  provider: ProviderIdentity,
  classification: Classification,
  probe: boolean,
  now: number,
): void {
  const settings = state.settings.breaker[provider.profile];
  const breaker = state.breakers.get(provider.id) ?? CLOSED;
  const counts = classification.countsForBreaker;
  const nextBreaker = recordFailure(breaker, settings, { countsForBreaker: counts, probe }, now);
  if (nextBreaker !== breaker) {
    state.breakers.set(provider.id, nextBreaker);
    if (counts) repos.breakers.save(provider.id, nextBreaker, now);
  }
  if (counts) state.gate = recordProviderFailure(state.gate, provider, state.settings.windowGate, now);
}

function egressLocks(
  egress: EgressHooks,
  target: Target,
  provider: ProviderIdentity,
  classification: Classification,
): boolean {
  return egressLockApplies(
    {
      status: classification.status,
      reason: classification.reason,
      terminal: classification.terminal,
      service: egress.serviceOf(provider),
      disableCooling: target.connection.view.disableCooling,
    },
    egress.allowlist,
  );
}

/** The connection's cooldown or terminal state (persisted when it changed) and its window gate. */
function chargeConnection(
  { state, repos }: FailureScope,
  target: Target,
  provider: ProviderIdentity,
  classification: Classification,
  outcome: UpstreamOutcome,
  now: number,
): Cooled {
  const c = target.connection.view;
  const health = state.health.get(c.id) ?? HEALTHY;
  const result = recordConnectionFailure(
    health,
    {
      reason: classification.reason,
      retryHintMs: classification.retryHint?.ms ?? null,
      ...configuredCooldown(classification.configuredCooldownMs, outcome, now),
      terminal: classification.terminal,
      requestRejected: classification.requestRejected,
      message: classification.message,
      status: classification.status,
    },
    {
      settings: cooldownSettingsFor(c, provider.profile, state.settings.cooldown),
      profile: provider.profile,
      disableCooling: c.disableCooling,
    },
    now,
  );
  if (result.state !== health) {
    state.health.set(c.id, result.state);
    repos.health.save(c.id, result.state, now);
  }
  state.gate = gateConnectionFailure(state.gate, provider.id, c.id, state.settings.windowGate, now);
  if (result.decision.kind === 'cooldown')
    return { retryMs: result.decision.until - now, until: result.decision.until };
  if (result.decision.kind === 'absorbed') return { retryMs: result.decision.retryAfterMs, until: null };
  return NOT_COOLED;
}

/**
 * The model on this connection: a lockout. RESTATE-14: a connection that may not cool
 * (disableCooling) takes a rule's connection-wide quota signal as a model lockout instead, whatever
 * the lockout settings say.
 */
function chargeModel(
  state: ResilienceState,
  target: Target,
  provider: ProviderIdentity,
  classification: Classification,
  now: number,
): void {
  const quotaFallThrough = target.connection.view.disableCooling && isRuleConnectionQuotaScope(classification);
  const status = classification.status;
  if (status === null) return;
  const locked = recordModelFailure(
    state.lockouts,
    {
      provider: provider.id,
      connectionId: target.connection.view.id,
      model: target.upstreamModel,
      status,
      reason: classification.reason,
      ...(classification.retryHint
        ? { cooldownHintMs: classification.retryHint.ms, hintSource: classification.retryHint.source }
        : {}),
      ...(quotaFallThrough ? { bypassSettingsGate: true } : {}),
    },
    state.settings.modelLockout,
    now,
  );
  state.lockouts = locked.state;
}

/** An announced end (a Claude usage wall's reset) wins over a rule's length; both over computed backoff. */
function configuredCooldown(
  ruleMs: number | undefined,
  outcome: UpstreamOutcome,
  now: number,
): { configuredCooldownMs?: number } {
  if (outcome.kind === 'response' && outcome.cooldownUntil !== undefined && outcome.cooldownUntil > now) {
    return { configuredCooldownMs: outcome.cooldownUntil - now };
  }
  return ruleMs === undefined ? {} : { configuredCooldownMs: ruleMs };
}

/** EGRESS-2/8: cools every allowlisted sibling last seen on the failing connection's egress IP. */
function lockSiblings(
  { state, repos }: FailureScope,
  egress: EgressHooks,
  connectionName: string,
  lock: { until: number; reason: string; service: string; now: number },
): void {
  for (const id of egress.siblingsOf(connectionName, lock.now)) {
    const health = state.health.get(id) ?? HEALTHY;
    const next = coolSibling(health, lock, lock.now);
    if (next === null) continue;
    state.health.set(id, next);
    repos.health.save(id, next, lock.now);
  }
}
