import type { TargetExclusion } from '../../src-shared/domain/cooldown';
import type { ResiliencePort } from './resilience-port';
import type { Admission } from '../kernel/attempt-outcome';
import type { Target } from '../kernel/target';
import { canExecute } from './breaker/breaker-gate';
import { resetBreaker, type BreakerState } from './breaker/breaker-state';
import { recordSuccess, releaseProbe } from './breaker/breaker-transitions';
import { recordConnectionSuccess } from './cooldown/clear-connection-health';
import { HEALTHY, isSelectable, type ConnectionHealth } from './cooldown/connection-health';
import { decayOnSuccess } from './lockout/decay-on-success';
import { isModelLocked } from './lockout/model-lockouts';
import type { EgressHooks } from './egress/egress-runtime';
import type { ProviderIdentity } from '../kernel/provider-identity';
import type { ResiliencePersistence, ResilienceState } from './resilience-state';
import { checkConnectionGate, checkProviderGate, recordGateSuccess } from './window-gate/window-gate';
import { learnFailure } from './learn-failure';

/** Emptiness without allocating a key array on every successful request. */
function hasAny(record: object): boolean {
  for (const _ in record) return true;
  return false;
}

/**
 * Issue 24: what set a connection's cooldown, from its health: the status and class of the failure,
 * and whether the upstream's own hint (Retry-After, a reset header or body) timed it (backoff level
 * 0 while cooling) or Leeway's backoff did.
 */
function coolingDetail(health: ConnectionHealth): string {
  const source = health.backoffLevel === 0 ? 'upstream hint' : `backoff level ${health.backoffLevel}`;
  const what = [health.errorCode, health.lastErrorType].filter((x): x is string => x !== null).join(' ');
  return what === '' ? source : `${what}, ${source}`;
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
        return {
          ...base,
          reason: 'unavailable',
          retryAfterSeconds: seconds(selectable.retryAfterMs),
          detail: coolingDetail(state.health.get(c.view.id) ?? HEALTHY),
        };
      return { ...base, reason: selectable.reason, retryAfterSeconds: null };
    }
    const breaker = canExecute(breakerOf(provider), breakerSettings(provider), now);
    if (!breaker.allowed)
      return {
        ...base,
        reason: 'circuit_open',
        retryAfterSeconds: seconds(breaker.retryAfterMs),
        detail: breaker.state.kind,
      };
    const gate = state.settings.windowGate;
    const providerGate = checkProviderGate(state.gate, provider.id, gate, now);
    if (!providerGate.allowed)
      return {
        ...base,
        reason: 'provider_cooldown',
        retryAfterSeconds: seconds(providerGate.retryAfterMs),
        detail: providerGate.detail,
      };
    const connectionGate = checkConnectionGate(state.gate, provider.id, c.view.id, gate, now);
    if (!connectionGate.allowed)
      return {
        ...base,
        reason: 'unavailable',
        retryAfterSeconds: seconds(connectionGate.retryAfterMs),
        detail: connectionGate.detail,
      };
    const lock = isModelLocked(state.lockouts, provider.id, c.view.id, target.upstreamModel, now);
    if (lock)
      return {
        ...base,
        reason: 'model_lockout',
        retryAfterSeconds: seconds(lock.expiresAt - now),
        detail: lock.reason,
      };
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

    admit(target, now, ignoreCooldown = false) {
      const provider = identityOf(target);
      // EGRESS-2: a sibling locked by another attempt of this same request (screened before it) is
      // refused here, before rotation spends a call on it.
      const health = state.health.get(target.connection.view.id);
      if (!ignoreCooldown && health !== undefined && health !== HEALTHY) {
        const selectable = isSelectable(health, now);
        if (!selectable.ok && selectable.reason === 'cooldown') {
          const exclusion: TargetExclusion = {
            connection: target.connection.view.name,
            model: target.upstreamModel,
            reason: 'unavailable',
            retryAfterSeconds: seconds(selectable.retryAfterMs),
            detail: coolingDetail(health),
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
          detail: decision.state.kind,
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
      return learnFailure({ state, repos, egress, onChange }, target, admission.probe, operation, outcome, now);
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
