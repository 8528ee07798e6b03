import type { CooldownClear, CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { Catalog } from '../kernel/catalog';
import { clearCooldown, resetConnection } from './cooldown/clear-connection-health';
import { HEALTHY, type TerminalStatus } from './cooldown/connection-health';
import { clearAllLockouts, clearLockout } from './lockout/clear-lockouts';
import type { ResiliencePersistence, ResilienceState } from './resilience-state';
import { buildCooldownSnapshot } from './resilience-snapshot';
import { emptyGate, type WindowGateState } from './window-gate/window-gate';

/** Transient state kept outside the engine (the Claude lane's max-wait cool-offs) that "Clear" also lifts (PROD-4). */
export interface TransientState {
  /** Lifts every entry, or one connection's; returns how many went. */
  clear(connectionId?: string): number;
}

/** Where the core attaches transient state held outside the engine. */
export interface TransientRegistry {
  /** Adds a holder of transient state to every clear of all or of one connection. */
  attachTransient(state: TransientState): void;
}

/** Operator actions on resilience state: list, clear transient state, reset terminal state. */
export interface ResilienceControl extends TransientRegistry {
  snapshot(now: number): CooldownSnapshot;
  /** Clears transient state only (COOL-10); returns how many items were cleared, or null if the target is unknown. */
  clear(input: CooldownClear, now: number): number | null;
  /** Everything of one connection, terminal state included (explicit reset or new credential). */
  resetConnection(connectionId: string, now: number): void;
  /** BRK-7: every breaker reset and every model lockout cleared; returns the number of breakers reset. */
  resetAll(now: number): number;
  /** A terminal state decided outside the request path (an OAuth refresh refused: needs_reauth). */
  markTerminal(connectionId: string, status: TerminalStatus, message: string, now: number): void;
}

function withoutConnection(gate: WindowGateState, connectionId: string): WindowGateState {
  const next = new Map(gate);
  for (const [key, entry] of gate)
    if (entry.kind === 'connection_backoff' && key.endsWith(`:${connectionId}`)) next.delete(key);
  return next;
}

export function createResilienceControl(
  state: ResilienceState,
  repos: ResiliencePersistence,
  catalog: () => Catalog,
  onChange: () => void,
): ResilienceControl {
  const transients: TransientState[] = [];
  const clearConnection = (id: string, now: number): number => {
    let cleared = 0;
    for (const t of transients) cleared += t.clear(id);
    const health = state.health.get(id);
    if (health) {
      const next = clearCooldown(health);
      if (next !== health) {
        state.health.set(id, next);
        repos.health.save(id, next, now);
        cleared++;
      }
    }
    const locks = Object.entries(state.lockouts).filter(([, e]) => e.connectionId === id);
    for (const [key] of locks) state.lockouts = clearLockout(state.lockouts, key);
    state.gate = withoutConnection(state.gate, id);
    return cleared + locks.length;
  };
  const resetBreakers = (): number => {
    const count = state.breakers.size;
    for (const id of state.breakers.keys()) repos.breakers.remove(id);
    state.breakers.clear();
    return count;
  };

  return {
    attachTransient: (t) => void transients.push(t),
    snapshot: (now) => buildCooldownSnapshot(state, catalog(), now),
    clear(input, now) {
      let cleared: number | null = 0;
      switch (input.target) {
        case 'all': {
          for (const id of [...state.health.keys()]) cleared += clearConnection(id, now);
          for (const t of transients) cleared += t.clear();
          cleared += Object.keys(state.lockouts).length + resetBreakers() + state.gate.size;
          state.lockouts = clearAllLockouts(state.lockouts);
          state.gate = emptyGate();
          break;
        }
        case 'connection': {
          const c = catalog().connections.find(
            (x) => x.view.name === input.connection || x.view.id === input.connection,
          );
          cleared = c ? clearConnection(c.view.id, now) : null;
          break;
        }
        case 'provider': {
          // Match the entry's own provider id: a key prefix would also hit `…:8080` when clearing `…:80`.
          const had =
            state.breakers.has(input.provider) || [...state.gate.values()].some((e) => e.providerId === input.provider);
          state.breakers.delete(input.provider);
          repos.breakers.remove(input.provider);
          state.gate = new Map([...state.gate].filter(([, e]) => e.providerId !== input.provider));
          cleared = had ? 1 : null;
          break;
        }
        case 'model': {
          const had = Object.hasOwn(state.lockouts, input.key);
          state.lockouts = clearLockout(state.lockouts, input.key);
          cleared = had ? 1 : null;
          break;
        }
      }
      onChange();
      return cleared;
    },
    resetConnection(id, now) {
      const health = state.health.get(id);
      if (health && health !== HEALTHY) {
        const next = resetConnection(health);
        state.health.set(id, next);
        repos.health.save(id, next, now);
      }
      clearConnection(id, now);
      onChange();
    },
    markTerminal(id, status, message, now) {
      const health = state.health.get(id) ?? HEALTHY;
      // Like a failure learned on the request path, the stored error starts with the connection's name.
      const name = catalog().connections.find((c) => c.view.id === id)?.view.name;
      const lastError = name === undefined ? message : `${name}: ${message}`;
      const next = {
        ...health,
        testStatus: status,
        lastError,
        lastErrorType: status,
        errorCode: status,
        lastFailureAt: now,
      };
      state.health.set(id, next);
      repos.health.save(id, next, now);
      onChange();
    },
    resetAll() {
      const count = resetBreakers();
      state.lockouts = clearAllLockouts(state.lockouts);
      onChange();
      return count;
    },
  };
}
