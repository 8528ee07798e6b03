import type { BreakerRepo } from './breaker/breaker-repo';
import type { ConnectionHealthRepo } from './cooldown/health-repo';
import type { BreakerState } from './breaker/breaker-state';
import type { ConnectionHealth } from './cooldown/connection-health';
import { NO_LOCKOUTS, type ModelLockouts } from './lockout/model-lockouts';
import type { ResilienceSettings } from './resilience-settings';
import { emptyGate, type WindowGateState } from './window-gate/window-gate';

/**
 * The engines' state, held by the core: plain values replaced on each change (the engines are
 * pure), written through to SQLite where the spec says it persists (health, breakers).
 */
export interface ResilienceState {
  settings: ResilienceSettings;
  health: Map<string, ConnectionHealth>;
  breakers: Map<string, BreakerState>;
  gate: WindowGateState;
  lockouts: ModelLockouts;
}

export interface ResiliencePersistence {
  health: ConnectionHealthRepo;
  breakers: BreakerRepo;
}

export function loadResilienceState(settings: ResilienceSettings, repos: ResiliencePersistence): ResilienceState {
  return {
    settings,
    health: repos.health.loadAll(),
    breakers: repos.breakers.loadAll(),
    gate: emptyGate(),
    lockouts: NO_LOCKOUTS,
  };
}
