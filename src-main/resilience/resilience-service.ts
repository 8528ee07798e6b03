import type { TargetExclusion } from '../../src-shared/domain/cooldown';
import type { UpstreamOperation } from '../kernel/provider-adapter';
import type { ResiliencePort } from './resilience-port';
import type { Admission, UpstreamOutcome, AttemptVerdict } from '../kernel/attempt-outcome';
import type { Target } from '../kernel/target';
import { canExecute } from './breaker/breaker-gate';
import { resetBreaker, type BreakerState } from './breaker/breaker-state';
import { recordFailure, recordSuccess, releaseProbe } from './breaker/breaker-transitions';
import { isRuleConnectionQuotaScope } from './classify/classification';
import { classifyOutcome } from './classify/classify';
import { recordConnectionSuccess } from './cooldown/clear-connection-health';
import { HEALTHY, isSelectable } from './cooldown/connection-health';
import { recordConnectionFailure } from './cooldown/record-connection-failure';
import { decayOnSuccess } from './lockout/decay-on-success';
import { isModelLocked } from './lockout/model-lockouts';
import { recordModelFailure } from './lockout/record-model-failure';
import { cooldownSettingsFor } from './connection-overrides';
import type { EgressHooks } from './egress/egress-runtime';
import { coolSibling, EGRESS_FALLBACK_COOLDOWN_MS, egressLockApplies } from './egress/engine/egress-lock';
import type { ProviderIdentity } from '../kernel/provider-identity';
import type { ResiliencePersistence, ResilienceState } from './resilience-state';
import {
  checkConnectionGate,
  checkProviderGate,
  recordConnectionFailure as gateConnectionFailure,
  recordGateSuccess,
  recordProviderFailure,
} from './window-gate/window-gate';

/** Emptiness without allocating a key array on every successful request. */
function hasAny(record: object): boolean {
  for (const _ in record) return true;
  return false;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const CLOSED: BreakerState = resetBreaker();

function identityOf(target: Target): ProviderIdentity {
  return target.connection.provider;
}

/**
 * The resilience engine behind the proxy's port: screens targets, admits attempts through the
 * breaker, and feeds every outcome to each engine exactly once. `onChange` persists and tells the UI.
 */
export function createResilienceService(
  state: ResilienceState,
  repos: ResiliencePersistence,
  onChange: () => void,
  egress: EgressHooks | null = null,
): ResiliencePort {
  const settled = new WeakSet<Admission>();
  const breakerOf = (provider: ProviderIdentity) => state.breakers.get(provider.id) ?? CLOSED;
  const breakerSettings = (provider: ProviderIdentity) => state.settings.breaker[provider.profile];
  const setBreaker = (provider: ProviderIdentity, next: BreakerState, now: number, persist: boolean) => {
    if (next === state.breakers.get(provider.id)) return;
    state.breakers.set(provider.id, next);
    if (persist) repos.breakers.save(provider.id, next, now);
  };

  /** Why this target cannot run now, or null; reads only, so screening never takes a probe slot. */
  function exclusionOf(target: Target, now: number): TargetExclusion | null {
    const c = target.connection;
    const provider = identityOf(target);
    const base = { connection: c.view.name, model: target.upstreamModel };
    const selectable = isSelectable(state.health.get(c.view.id) ?? HEALTHY, now);
    if (!selectable.ok) {
      // ROUTE-6 names a cooling connection `unavailable` (its testStatus); terminal states keep their own names.
      if (selectable.reason === 'cooldown')
        return { ...base, reason: 'unavailable', retryAfterSeconds: seconds(selectable.retryAfterMs) };
      return { ...base, reason: selectable.reason, retryAfterSeconds: null };
    }
    const breaker = canExecute(breakerOf(provider), breakerSettings(provider), now);
    if (!breaker.allowed) return { ...base, reason: 'circuit_open', retryAfterSeconds: seconds(breaker.retryAfterMs) };
    const gate = state.settings.windowGate;
    const providerGate = checkProviderGate(state.gate, provider.id, gate, now);
    if (!providerGate.allowed)
      return { ...base, reason: 'provider_cooldown', retryAfterSeconds: seconds(providerGate.retryAfterMs) };
    const connectionGate = checkConnectionGate(state.gate, provider.id, c.view.id, gate, now);
    if (!connectionGate.allowed)
      return { ...base, reason: 'unavailable', retryAfterSeconds: seconds(connectionGate.retryAfterMs) };
    const lock = isModelLocked(state.lockouts, provider.id, c.view.id, target.upstreamModel, now);
    if (lock) return { ...base, reason: 'model_lockout', retryAfterSeconds: seconds(lock.expiresAt - now) };
    return null;
  }

  return {
    screen(targets, now) {
      const runnable: Target[] = [];
      const excluded: TargetExclusion[] = [];
      for (const target of targets) {
        const exclusion = exclusionOf(target, now);
        if (exclusion) excluded.push(exclusion);
        else runnable.push(target);
      }
      return { runnable, excluded };
    },

    admit(target, now) {
      const provider = identityOf(target);
      // EGRESS-2: a sibling locked by another attempt of this same request (screened before it) is
      // refused here, before rotation spends a call on it.
      const health = state.health.get(target.connection.view.id);
      if (health !== undefined && health !== HEALTHY) {
        const selectable = isSelectable(health, now);
        if (!selectable.ok && selectable.reason === 'cooldown') {
          const exclusion: TargetExclusion = {
            connection: target.connection.view.name,
            model: target.upstreamModel,
            reason: 'unavailable',
            retryAfterSeconds: seconds(selectable.retryAfterMs),
          };
          return { ok: false, exclusion };
        }
      }
      const decision = canExecute(breakerOf(provider), breakerSettings(provider), now);
      if (!decision.allowed) {
        const exclusion: TargetExclusion = {
          connection: target.connection.view.name,
          model: target.upstreamModel,
          reason: 'circuit_open',
          retryAfterSeconds: seconds(decision.retryAfterMs),
        };
        return { ok: false, exclusion };
      }
      // Only a probe changes the breaker at admission; persisting it is not needed (restore frees probes).
      if (decision.probe) setBreaker(provider, decision.state, now, false);
      const admission: Admission = {
        probe: decision.probe,
        release() {
          // A probe whose outcome was learned already gave its slot back through the breaker.
          if (!decision.probe || settled.has(admission)) return;
          settled.add(admission);
          setBreaker(provider, releaseProbe(breakerOf(provider), breakerSettings(provider), now), now, false);
        },
      };
      return { ok: true, admission };
    },

    learnFailure(target, admission, operation, outcome, now) {
      settled.add(admission);
      egress?.touched(target.connection.view.id, now);
      return learnFailure(state, repos, target, admission.probe, operation, outcome, now, onChange, egress);
    },

    learnSuccess(target, admission, now) {
      settled.add(admission);
      const c = target.connection.view;
      egress?.touched(c.id, now);
      const provider = identityOf(target);
      let changed = false;
      const health = state.health.get(c.id);
      if (
        health &&
        health !== HEALTHY &&
        (health.lastError !== null ||
          health.rateLimitedUntil !== null ||
          health.backoffLevel > 0 ||
          health.rejectedStreak > 0)
      ) {
        const next = recordConnectionSuccess(health);
        state.health.set(c.id, next);
        repos.health.save(c.id, next, now);
        changed = true;
      }
      const breaker = state.breakers.get(provider.id);
      if (breaker && (breaker.kind !== 'CLOSED' || breaker.failureCount > 0)) {
        setBreaker(provider, recordSuccess(breaker, breakerSettings(provider), now), now, true);
        changed = true;
      }
      if (state.gate.size > 0) state.gate = recordGateSuccess(state.gate, provider.id, c.id);
      if (hasAny(state.lockouts)) {
        const decayed = decayOnSuccess(state.lockouts, provider.id, c.id, target.upstreamModel);
        if (decayed.state !== state.lockouts) {
          state.lockouts = decayed.state;
          changed = true;
        }
      }
      if (changed) onChange();
    },
  };
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

/** The learn step for one failed attempt: classify once, then charge the narrowest scope (COOL-14). */
function learnFailure(
  state: ResilienceState,
  repos: ResiliencePersistence,
  target: Target,
  probe: boolean,
  operation: UpstreamOperation,
  outcome: UpstreamOutcome,
  now: number,
  onChange: () => void,
  egress: EgressHooks | null,
): AttemptVerdict {
  // count_tokens is optional upstream: a 404/405 there says nothing about the connection.
  if (
    operation === 'count_tokens' &&
    outcome.kind === 'response' &&
    (outcome.status === 404 || outcome.status === 405)
  ) {
    return { shouldFailover: true, status: outcome.status, retryAfterMs: null, reason: 'unsupported' };
  }
  const c = target.connection.view;
  const provider = identityOf(target);
  const classification = classifyOutcome(outcome, {
    provider,
    model: target.upstreamModel,
    connection: c.name,
    operatorRules: state.settings.providerErrorRules,
    now,
  });
  const settings = state.settings.breaker[provider.profile];

  const breaker = state.breakers.get(provider.id) ?? CLOSED;
  const nextBreaker = recordFailure(
    breaker,
    settings,
    { countsForBreaker: classification.countsForBreaker, probe },
    now,
  );
  if (nextBreaker !== breaker) {
    state.breakers.set(provider.id, nextBreaker);
    if (classification.countsForBreaker) repos.breakers.save(provider.id, nextBreaker, now);
  }
  if (classification.countsForBreaker)
    state.gate = recordProviderFailure(state.gate, provider, state.settings.windowGate, now);

  let cooldownRetryMs: number | null = null;
  let cooledUntil: number | null = null;
  // EGRESS-6/7: an IP-bucketed upstream's 429 is a connection cooldown (never a model lock), combo or not.
  const egressLock =
    egress !== null &&
    egressLockApplies(
      {
        status: classification.status,
        reason: classification.reason,
        terminal: classification.terminal,
        service: egress.serviceOf(provider),
        disableCooling: c.disableCooling,
      },
      egress.allowlist,
    );
  const chargesConnection =
    egressLock ||
    classification.scope === 'connection' ||
    classification.terminal !== null ||
    classification.requestRejected;
  if (chargesConnection) {
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
    if (result.decision.kind === 'cooldown') {
      cooldownRetryMs = result.decision.until - now;
      cooledUntil = result.decision.until;
    }
    if (result.decision.kind === 'absorbed') cooldownRetryMs = result.decision.retryAfterMs;
    state.gate = gateConnectionFailure(state.gate, provider.id, c.id, state.settings.windowGate, now);
  }
  // RESTATE-14: a connection that may not cool (disableCooling) takes a rule's connection-wide quota
  // signal as a model lockout instead, whatever the lockout settings say.
  const quotaFallThrough = c.disableCooling && isRuleConnectionQuotaScope(classification);
  if (egress !== null && egressLock) {
    lockSiblings(state, repos, egress, c.name, {
      until: cooledUntil ?? now + EGRESS_FALLBACK_COOLDOWN_MS,
      reason: classification.reason,
      service: egress.serviceOf(provider),
      now,
    });
  } else if (classification.scope !== 'request' && classification.status !== null) {
    const locked = recordModelFailure(
      state.lockouts,
      {
        provider: provider.id,
        connectionId: c.id,
        model: target.upstreamModel,
        status: classification.status,
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
  onChange();
  return {
    shouldFailover: classification.shouldFailover,
    status: classification.status,
    retryAfterMs: classification.announceRetryAfterMs ?? classification.retryHint?.ms ?? cooldownRetryMs,
    reason: classification.reason,
  };
}

/** EGRESS-2/8: cools every allowlisted sibling last seen on the failing connection's egress IP. */
function lockSiblings(
  state: ResilienceState,
  repos: ResiliencePersistence,
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
