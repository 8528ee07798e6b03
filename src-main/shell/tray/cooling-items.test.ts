import { describe, expect, it } from 'vitest';
import {
  connectionRow,
  coolingRow,
  lockRow,
  providerRow,
  snapshotOf,
  T0,
  terminalRow,
} from '../shell-fixtures.testkit';
import { coolingItems, formatTimeLeft, leftAt, terminalItems, withoutDisabled } from './cooling-items';

describe('cooling items', () => {
  it('PROD-4: lists cooling connections, blocked providers and locked models with time left at now', () => {
    const snapshot = snapshotOf({
      connections: [coolingRow('b', 90_000), coolingRow('a', 30_000), connectionRow('healthy')],
      providers: [
        providerRow('anthropic@https://api.anthropic.com', { state: 'OPEN', retryAfterMs: 60_000 }),
        providerRow('openai@https://api.openai.com', { state: 'DEGRADED', failureCount: 2 }),
      ],
      models: [lockRow('a', 'claude-opus', 120_000)],
    });
    expect(coolingItems(snapshot, T0 + 10_000)).toEqual([
      { kind: 'connection', name: 'a', remainingMs: 20_000, reason: 'rate_limit_exceeded' },
      { kind: 'connection', name: 'b', remainingMs: 80_000, reason: 'rate_limit_exceeded' },
      {
        kind: 'provider',
        provider: 'anthropic@https://api.anthropic.com',
        label: 'anthropic · api.anthropic.com',
        remainingMs: 50_000,
        reason: 'circuit_open',
      },
      {
        kind: 'model',
        key: 'anthropic:id-a:claude-opus',
        connection: 'a',
        model: 'claude-opus',
        remainingMs: 110_000,
        reason: 'model_not_found',
      },
    ]);
  });

  it('PROD-4: an item whose time has passed drops out without a new snapshot', () => {
    const snapshot = snapshotOf({ connections: [coolingRow('a', 30_000)], models: [lockRow('a', 'm', 5_000)] });
    expect(coolingItems(snapshot, T0 + 5_000).map((i) => i.kind)).toEqual(['connection']);
    expect(coolingItems(snapshot, T0 + 30_000)).toEqual([]);
  });

  it('COOL-10: terminal connections are never cooling items, only terminal items', () => {
    const snapshot = snapshotOf({
      connections: [
        terminalRow('z', 'banned', 'account disabled'),
        terminalRow('y', 'expired'),
        coolingRow('c', 1_000),
      ],
    });
    expect(coolingItems(snapshot, T0).map((i) => (i.kind === 'connection' ? i.name : i.kind))).toEqual(['c']);
    expect(terminalItems(snapshot)).toEqual([
      { name: 'y', status: 'expired', lastError: null },
      { name: 'z', status: 'banned', lastError: 'account disabled' },
    ]);
  });

  it('PROD-4: a window gate cools a provider even while its breaker is closed', () => {
    const gated = providerRow('openai@https://api.openai.com', {
      gate: { cooling: true, failuresInWindow: 3, retryAfterMs: 15_000 },
    });
    expect(coolingItems(snapshotOf({ providers: [gated] }), T0)).toMatchObject([
      { kind: 'provider', reason: 'window_gate', remainingMs: 15_000 },
    ]);
  });

  it('PROD-6: time left counts down from the snapshot time and never goes negative', () => {
    const snapshot = snapshotOf();
    expect(leftAt(snapshot, 5_000, T0 + 2_000)).toBe(3_000);
    expect(leftAt(snapshot, 5_000, T0 + 9_000)).toBe(0);
    expect(leftAt(snapshot, null, T0)).toBe(0);
  });

  it('PROD-4: time left reads mm:ss, h:mm:ss past an hour, rounding up', () => {
    expect(formatTimeLeft(83_000)).toBe('01:23');
    expect(formatTimeLeft(82_001)).toBe('01:23');
    expect(formatTimeLeft(999)).toBe('00:01');
    expect(formatTimeLeft(0)).toBe('00:00');
    expect(formatTimeLeft(3_723_000)).toBe('1:02:03');
  });

  it('PROD-4: connections switched off drop out with their model lockouts', () => {
    const snapshot = snapshotOf({
      connections: [coolingRow('a', 1_000), coolingRow('off', 1_000)],
      models: [lockRow('off', 'm', 1_000)],
    });
    const shown = withoutDisabled(snapshot, new Set(['id-off']));
    expect(shown.connections.map((c) => c.name)).toEqual(['a']);
    expect(shown.models).toEqual([]);
    expect(withoutDisabled(snapshot, new Set())).toBe(snapshot);
  });
});
