import type { CooldownSnapshot, ProviderBreakerRow } from '../../src-shared/domain/cooldown';
import type { Catalog } from '../kernel/catalog';
import { statusOf } from './breaker/breaker-gate';
import { resetBreaker } from './breaker/breaker-state';
import { effectiveTestStatus, HEALTHY, isSelectable, isTerminalStatus } from './cooldown/connection-health';
import { listLockouts } from './lockout/model-lockouts';
import { providerIdentity, type ProviderIdentity } from '../kernel/provider-identity';
import type { ResilienceState } from './resilience-state';
import { gateSnapshot } from './window-gate/gate-snapshot';

/**
 * Everything cooling, read through the engines' own accessors so an expired entry never shows as
 * active (PROV-7, PROV-9): every connection with its COOL-2 fields, every provider (configured, or
 * with a breaker or gate entry) with its breaker state, every active model lockout.
 */
export function buildCooldownSnapshot(state: ResilienceState, catalog: Catalog, now: number): CooldownSnapshot {
  const names = new Map(catalog.connections.map((c) => [c.view.id, c.view.name]));
  const providers = new Map<string, ProviderIdentity>();
  for (const c of catalog.connections) {
    const p = providerIdentity(c.view.kind, c.origin);
    providers.set(p.id, p);
  }

  const connections = catalog.connections.map((c) => {
    const h = state.health.get(c.view.id) ?? HEALTHY;
    const selectable = isSelectable(h, now);
    return {
      id: c.view.id,
      name: c.view.name,
      provider: providerIdentity(c.view.kind, c.origin).id,
      rateLimitedUntil: h.rateLimitedUntil,
      backoffLevel: h.backoffLevel,
      testStatus: effectiveTestStatus(h, now),
      lastError: h.lastError,
      lastErrorType: h.lastErrorType,
      errorCode: h.errorCode,
      terminal: isTerminalStatus(h.testStatus),
      retryAfterMs: !selectable.ok && selectable.reason === 'cooldown' ? selectable.retryAfterMs : null,
    };
  });

  const gate = gateSnapshot(state.gate, state.settings.windowGate, now);
  const gateRows = new Map(gate.providers.map((g) => [g.providerId, g]));
  // BRK-8: every configured provider is reported (a healthy one as CLOSED with no failures), plus
  // any breaker or gate entry left by a provider no connection uses any more.
  const providerIds = new Set([...providers.keys(), ...state.breakers.keys(), ...gateRows.keys()]);
  const providerRows: ProviderBreakerRow[] = [...providerIds].sort().map((id) => {
    const identity = providers.get(id);
    const [kind = id, origin = ''] = id.split('@');
    const profile = identity?.profile ?? gateRows.get(id)?.profile ?? 'apikey';
    const status = statusOf(state.breakers.get(id) ?? resetBreaker(), state.settings.breaker[profile], now);
    const g = gateRows.get(id);
    return {
      provider: id,
      kind,
      origin,
      profile,
      state: status.kind,
      failureCount: status.failureCount,
      retryAfterMs: status.retryAfterMs,
      gate: g ? { cooling: g.cooling, failuresInWindow: g.failuresInWindow, retryAfterMs: g.retryAfterMs } : null,
    };
  });

  const models = listLockouts(state.lockouts, now).map((l) => ({
    key: l.key,
    provider: l.provider,
    connectionId: l.connectionId,
    connection: names.get(l.connectionId) ?? l.connectionId,
    model: l.model,
    reason: l.reason,
    expiresAt: l.expiresAt,
    failureCount: l.failureCount,
  }));
  return { connections, providers: providerRows, models, now };
}
