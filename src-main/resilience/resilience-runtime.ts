import type { EventBus } from '../kernel/event-bus';
import { createBreakerRepo } from './breaker/breaker-repo';
import { createHealthRepo } from './cooldown/health-repo';
import type { ResilienceStores } from './resilience-stores';
import type { ResiliencePort } from './resilience-port';
import type { Catalog } from '../kernel/catalog';
import type { EnvSource } from './breaker/setting-overrides';
import { createResilienceControl, type ResilienceControl } from './resilience-control';
import { createEgressRuntime, type EgressHooks } from './egress/egress-runtime';
import { createResilienceService } from './resilience-service';
import {
  deepMerge,
  resiliencePatchSchema,
  resolveResilienceSettings,
  type ResilienceSettings,
  type ResolveResult,
  type StoredResiliencePatch,
} from './resilience-settings';
import { loadResilienceState } from './resilience-state';
import { HEALTHY, type ConnectionHealth } from './cooldown/connection-health';
import { mergeHealth } from './cooldown/merge-health';
import { mergeBreaker } from './breaker/merge-breaker';
import type { BreakerState } from './breaker/breaker-state';
import type { ModelLockouts } from './lockout/model-lockouts';

/** Told after each change of the model lockouts, with the state before and after (issue 24 §4). */
export type LockoutsListener = (before: ModelLockouts, after: ModelLockouts, now: number) => void;

/** The resilience engine as the core holds it: the proxy's port, the operator's control, the settings. */
export interface ResilienceRuntime {
  port: ResiliencePort;
  control: ResilienceControl;
  settings: { get(): ResilienceSettings; update(patch: Record<string, unknown>): ResolveResult };
  /** EGRESS: the egress-IP probe and lock (read by tests and shutdown through `idle()`). */
  egress: EgressHooks;
  /** A connection's health another instance learnt (issue 24 §4), merged into ours; false when nothing changed. */
  absorbHealth(connectionId: string, remote: ConnectionHealth): boolean;
  /** A provider breaker another instance opened, merged into ours; false when nothing changed. */
  absorbBreaker(providerId: string, remote: BreakerState): boolean;
  /** Model lockouts another instance learnt or cleared: `fold` merges them into ours; false when nothing changed. */
  absorbLockouts(fold: (local: ModelLockouts) => ModelLockouts): boolean;
  /** One listener for every change of this instance's lockouts (recorded, extended, decayed, cleared, absorbed). */
  onLockoutsChanged(listener: LockoutsListener): void;
}

/** Coalesces bursts of changes into one `cooldowns.changed` event per tick, so a storm of failures is one UI update. */
function createChangeNotifier(emit: () => void): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      emit();
    });
  };
}

/** The stored settings patch; a row that is not a JSON object reads as no change at all. */
function readPatch(json: string | null): StoredResiliencePatch {
  if (json === null) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as StoredResiliencePatch) : {};
  } catch {
    return {};
  }
}

export function createResilienceRuntime(
  stores: ResilienceStores,
  env: EnvSource,
  catalog: () => Catalog,
  events: EventBus,
  now: () => number,
): ResilienceRuntime {
  const repos = { health: createHealthRepo(stores.health), breakers: createBreakerRepo(stores.breakers) };
  let stored = readPatch(stores.settings.read());
  const initial = resolveResilienceSettings(stored, env);
  // A stored row that no longer validates (hand edit, older version) must not keep Leeway down: defaults apply.
  const state = loadResilienceState(
    initial.ok ? initial.value : (resolveResilienceSettings({}, env) as { ok: true; value: ResilienceSettings }).value,
    repos,
  );
  let notifier: () => void = () => undefined;
  let lockoutsListener: LockoutsListener | null = null;
  let seenLockouts = state.lockouts;
  // Every lockout change ends in onChange; comparing the (immutable) record's identity costs nothing.
  const onChange = () => {
    if (state.lockouts !== seenLockouts) {
      const before = seenLockouts;
      seenLockouts = state.lockouts;
      lockoutsListener?.(before, seenLockouts, now());
    }
    notifier();
  };
  const control = createResilienceControl(state, repos, catalog, onChange);
  notifier = createChangeNotifier(() => events.emit('cooldowns.changed', { snapshot: control.snapshot(now()) }));
  const egress = createEgressRuntime(stores.egress, env, catalog, now);
  return {
    port: createResilienceService(state, repos, onChange, egress),
    egress,
    control,
    absorbHealth(connectionId, remote) {
      const local = state.health.get(connectionId) ?? HEALTHY;
      const merged = mergeHealth(local, remote);
      if (merged === local) return false;
      state.health.set(connectionId, merged);
      repos.health.save(connectionId, merged, now());
      onChange();
      return true;
    },
    absorbBreaker(providerId, remote) {
      const local = state.breakers.get(providerId);
      const merged = mergeBreaker(local, remote);
      if (merged === local || merged === undefined) return false;
      state.breakers.set(providerId, merged);
      repos.breakers.save(providerId, merged, now());
      onChange();
      return true;
    },
    absorbLockouts(fold) {
      const merged = fold(state.lockouts);
      if (merged === state.lockouts) return false;
      state.lockouts = merged;
      onChange();
      return true;
    },
    onLockoutsChanged: (listener) => void (lockoutsListener = listener),
    settings: {
      get: () => state.settings,
      update(patch) {
        const shape = resiliencePatchSchema.safeParse(patch);
        if (!shape.success) {
          return {
            ok: false,
            issues: shape.error.issues.map((i) => ({
              path: i.path.map(String).join('.') || '(input)',
              message: i.message,
            })),
          };
        }
        const merged: StoredResiliencePatch = {};
        for (const key of new Set([...Object.keys(stored), ...Object.keys(patch)])) {
          (merged as Record<string, unknown>)[key] = deepMerge((stored as Record<string, unknown>)[key], patch[key]);
        }
        const result = resolveResilienceSettings(merged, env);
        if (!result.ok) return result;
        stored = merged;
        stores.settings.write(JSON.stringify(stored));
        state.settings = result.value;
        return result;
      },
    },
  };
}
