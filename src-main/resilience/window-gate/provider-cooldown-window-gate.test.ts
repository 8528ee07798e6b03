import { describe, expect, it } from 'vitest';
import type { ProviderProfile } from '../../kernel/provider-identity';
import { connectionBackoffMs } from './connection-backoff';
import { gateSnapshot } from './gate-snapshot';
import {
  checkConnectionGate,
  checkProviderGate,
  emptyGate,
  recordConnectionFailure,
  recordGateSuccess,
  recordProviderFailure,
  sweepGate,
  type WindowGateState,
} from './window-gate';
import { resolveWindowGateSettings } from './window-gate-settings';

const on = resolveWindowGateSettings({ enabled: true });
const T0 = 1_700_000_000_000;
const openai = { id: 'openai@https://api.openai.com', profile: 'apikey' as ProviderProfile };

/** Records `n` provider-level failures one second apart, the first at `from`. */
function failProvider(state: WindowGateState, provider: typeof openai, n: number, from = T0): WindowGateState {
  let next = state;
  for (let i = 0; i < n; i++) next = recordProviderFailure(next, provider, on, from + i * 1_000);
  return next;
}

/** Milliseconds the provider must still wait, 0 when it may be tried. */
function remaining(state: WindowGateState, providerId: string, now: number): number {
  const decision = checkProviderGate(state, providerId, on, now);
  return decision.allowed ? 0 : decision.retryAfterMs;
}

describe('TEST-5 provider-cooldown-window-gate', () => {
  it('PROV-1: the layer is off by default and records nothing while off', () => {
    const off = resolveWindowGateSettings();
    expect(off.enabled).toBe(false);
    let state = emptyGate();
    for (let i = 0; i < 50; i++) state = recordProviderFailure(state, openai, off, T0 + i);
    expect(state.size).toBe(0);
    expect(checkProviderGate(failProvider(emptyGate(), openai, 15), openai.id, off, T0 + 15_000)).toEqual({
      allowed: true,
    });
  });

  it('PROV-4: API key profile with 14 failures (threshold − 1) is not cooling and has nothing remaining', () => {
    const state = failProvider(emptyGate(), openai, 14);
    expect(remaining(state, openai.id, T0 + 14_000)).toBe(0);
  });

  it('PROV-3: the 15th failure inside 30 min starts a 10 min cooldown from that failure', () => {
    const state = failProvider(emptyGate(), openai, 15);
    const last = T0 + 14_000;
    expect(checkProviderGate(state, openai.id, on, last)).toEqual({
      allowed: false,
      reason: 'provider_cooldown',
      retryAfterMs: 600_000,
      detail: '15 failures within 30 min reached the threshold of 15',
    });
    expect(remaining(state, openai.id, last + 5_000)).toBe(595_000);
  });

  it('PROV-3: failures older than the window do not count toward the threshold', () => {
    const stale = failProvider(emptyGate(), openai, 14);
    const afterWindow = T0 + 13_000 + 1_800_000 + 60_000;
    const state = recordProviderFailure(stale, openai, on, afterWindow);
    expect(remaining(state, openai.id, afterWindow)).toBe(0);
    expect(gateSnapshot(state, on, afterWindow).providers[0]).toMatchObject({ failuresInWindow: 1, cooling: false });
  });

  it('PROV-7: once the cooldown has passed the accessor reports the provider usable, with no timer run', () => {
    const state = failProvider(emptyGate(), openai, 15);
    const trippedAt = T0 + 14_000;
    expect(remaining(state, openai.id, trippedAt + 599_999)).toBe(1);
    expect(checkProviderGate(state, openai.id, on, trippedAt + 600_000)).toEqual({ allowed: true });
    expect(checkProviderGate(state, openai.id, on, trippedAt + 601_000)).toEqual({ allowed: true });
  });

  it('PROV-4: a success clears the window: not cooling, and one more failure does not re-trip', () => {
    const tripped = failProvider(emptyGate(), openai, 15);
    const cleared = recordGateSuccess(tripped, openai.id, null);
    expect(remaining(cleared, openai.id, T0 + 15_000)).toBe(0);
    const again = recordProviderFailure(cleared, openai, on, T0 + 16_000);
    expect(remaining(again, openai.id, T0 + 16_000)).toBe(0);
  });

  it('PROV-3: failures while cooling do not extend the cooldown', () => {
    const tripped = failProvider(emptyGate(), openai, 15);
    const trippedAt = T0 + 14_000;
    const more = failProvider(tripped, openai, 5, trippedAt + 60_000);
    expect(remaining(more, openai.id, trippedAt + 60_000)).toBe(540_000);
    expect(checkProviderGate(more, openai.id, on, trippedAt + 600_000).allowed).toBe(true);
  });

  it.each([
    ['oauth', 10, 900_000, 300_000],
    ['apikey', 15, 1_800_000, 600_000],
    ['local', 2, 300_000, 60_000],
  ] as const)(
    'PROV-3: the %s profile trips at %i failures within %i ms and cools for exactly %i ms',
    (profile, threshold, windowMs, cooldownMs) => {
      const provider = { id: `p-${profile}`, profile };
      const below = failProvider(emptyGate(), provider, threshold - 1);
      expect(remaining(below, provider.id, T0 + threshold * 1_000)).toBe(0);
      const at = recordProviderFailure(below, provider, on, T0 + threshold * 1_000);
      expect(remaining(at, provider.id, T0 + threshold * 1_000)).toBe(cooldownMs);
      expect(remaining(at, provider.id, T0 + threshold * 1_000 + cooldownMs)).toBe(0);
      const gapAfter = T0 + (threshold - 2) * 1_000 + windowMs + 1;
      expect(remaining(recordProviderFailure(below, provider, on, gapAfter), provider.id, gapAfter)).toBe(0);
    },
  );

  it('PROV-5: one connection-level failure cools that connection for minRetryCooldownMs (5 s)', () => {
    const state = recordConnectionFailure(emptyGate(), openai.id, 'conn-1', on, T0);
    expect(checkConnectionGate(state, openai.id, 'conn-1', on, T0)).toMatchObject({
      allowed: false,
      reason: 'connection_cooldown',
      retryAfterMs: 5_000,
    });
    expect(checkConnectionGate(state, openai.id, 'conn-1', on, T0 + 5_000)).toEqual({ allowed: true });
    expect(checkConnectionGate(state, openai.id, 'conn-2', on, T0)).toEqual({ allowed: true });
    expect(checkProviderGate(state, openai.id, on, T0)).toEqual({ allowed: true });
  });

  it('PROV-5: connection backoff doubles per consecutive failure and stops at maxRetryCooldownMs (300 s)', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => connectionBackoffMs(n, on))).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
    let state = emptyGate();
    let at = T0;
    for (let n = 1; n <= 3; n++) {
      state = recordConnectionFailure(state, openai.id, 'conn-1', on, at);
      at += connectionBackoffMs(n, on);
    }
    const decision = checkConnectionGate(state, openai.id, 'conn-1', on, at - 1);
    expect(decision).toMatchObject({
      allowed: false,
      retryAfterMs: 1,
      detail: 'failure 3 in a row; backing off 20000 ms',
    });
  });

  it('PROV-5: a success clears the connection backoff, so the next failure starts again at 5 s', () => {
    let state = recordConnectionFailure(emptyGate(), openai.id, 'conn-1', on, T0);
    state = recordConnectionFailure(state, openai.id, 'conn-1', on, T0 + 5_000);
    state = recordGateSuccess(state, openai.id, 'conn-1');
    state = recordConnectionFailure(state, openai.id, 'conn-1', on, T0 + 20_000);
    expect(checkConnectionGate(state, openai.id, 'conn-1', on, T0 + 20_000)).toMatchObject({ retryAfterMs: 5_000 });
  });

  it('PROV-2: empty and "unknown" provider ids are not tracked', () => {
    let state = emptyGate();
    for (const id of ['', 'unknown']) state = failProvider(state, { id, profile: 'local' }, 5);
    expect(state.size).toBe(0);
  });

  it('PROV-9: the snapshot lists provider windows and connection backoffs, refreshed against now', () => {
    let state = failProvider(emptyGate(), openai, 15);
    state = recordConnectionFailure(state, openai.id, 'conn-1', on, T0 + 14_000);
    const snapshot = gateSnapshot(state, on, T0 + 16_000);
    expect(snapshot.providers).toEqual([
      {
        providerId: openai.id,
        profile: 'apikey',
        cooling: true,
        failuresInWindow: 15,
        threshold: 15,
        retryAfterMs: 598_000,
        reason: '15 failures within 30 min reached the threshold of 15',
      },
    ]);
    expect(snapshot.connections).toEqual([
      {
        providerId: openai.id,
        connectionId: 'conn-1',
        cooling: true,
        failureCount: 1,
        retryAfterMs: 3_000,
        reason: 'failure 1 in a row; backing off 5000 ms',
      },
    ]);
    expect(gateSnapshot(state, on, T0 + 14_000 + 600_000).providers[0]).toMatchObject({
      cooling: false,
      retryAfterMs: null,
    });
    expect(gateSnapshot(state, resolveWindowGateSettings(), T0)).toEqual({
      enabled: false,
      providers: [],
      connections: [],
    });
  });

  it('PROV-8: the sweep drops expired cooldowns and forgets entries with nothing left in their window', () => {
    let state = failProvider(emptyGate(), openai, 15);
    state = recordConnectionFailure(state, openai.id, 'conn-1', on, T0);
    expect(sweepGate(state, on, T0 + 20_000).size).toBe(2);
    const afterWindow = sweepGate(state, on, T0 + 14_000 + 1_800_000);
    expect(afterWindow.size).toBe(0);
  });
});
