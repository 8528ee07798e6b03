import type { EventBus } from '../api/event-bus';
import { createBreakerRepo } from '../db/breaker-repo';
import { createConnectionHealthRepo } from '../db/connection-health-repo';
import type { Database } from '../db/open';
import { createResilienceSettingsRepo } from '../db/resilience-settings-repo';
import type { ResiliencePort } from '../proxy/resilience-port';
import type { Catalog } from '../routing/catalog';
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

/** The resilience engine as the core holds it: the proxy's port, the operator's control, the settings. */
export interface ResilienceRuntime {
  port: ResiliencePort;
  control: ResilienceControl;
  settings: { get(): ResilienceSettings; update(patch: Record<string, unknown>): ResolveResult };
  /** EGRESS: the egress-IP probe and lock (read by tests and shutdown through `idle()`). */
  egress: EgressHooks;
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

export function createResilienceRuntime(
  db: Database,
  env: EnvSource,
  catalog: () => Catalog,
  events: EventBus,
  now: () => number,
): ResilienceRuntime {
  const settingsRepo = createResilienceSettingsRepo(db);
  const repos = { health: createConnectionHealthRepo(db), breakers: createBreakerRepo(db) };
  let stored = settingsRepo.get();
  const initial = resolveResilienceSettings(stored, env);
  // A stored row that no longer validates (hand edit, older version) must not keep Leeway down: defaults apply.
  const state = loadResilienceState(
    initial.ok ? initial.value : (resolveResilienceSettings({}, env) as { ok: true; value: ResilienceSettings }).value,
    repos,
  );
  let notifier: () => void = () => undefined;
  const onChange = () => notifier();
  const control = createResilienceControl(state, repos, catalog, onChange);
  notifier = createChangeNotifier(() => events.emit('cooldowns.changed', { snapshot: control.snapshot(now()) }));
  const egress = createEgressRuntime(db, env, catalog, now);
  return {
    port: createResilienceService(state, repos, onChange, egress),
    egress,
    control,
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
        settingsRepo.set(stored);
        state.settings = result.value;
        return result;
      },
    },
  };
}
