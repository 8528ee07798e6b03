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
import { firstRecoveryMs, trayState } from './tray-state';

const running = { paused: false };
const anthropic = 'anthropic@https://api.anthropic.com';

describe('trayState', () => {
  it('PROD-4: serving when nothing limits any connection (and with no connection at all)', () => {
    expect(trayState(snapshotOf({ connections: [connectionRow('a'), connectionRow('b')] }), running, T0)).toBe(
      'serving',
    );
    expect(trayState(snapshotOf(), running, T0)).toBe('serving');
  });

  it('PROD-4: cooling when some connection, provider or model cools while another can serve', () => {
    expect(trayState(snapshotOf({ connections: [coolingRow('a', 60_000), connectionRow('b')] }), running, T0)).toBe(
      'cooling',
    );
    expect(
      trayState(snapshotOf({ connections: [connectionRow('a')], models: [lockRow('a', 'm', 10_000)] }), running, T0),
    ).toBe('cooling');
    expect(trayState(snapshotOf({ connections: [terminalRow('a', 'expired'), connectionRow('b')] }), running, T0)).toBe(
      'cooling',
    );
  });

  it('PROD-4: blocked when every connection is cooling or terminal', () => {
    const snapshot = snapshotOf({ connections: [coolingRow('a', 60_000), terminalRow('b', 'banned')] });
    expect(trayState(snapshot, running, T0)).toBe('blocked');
    expect(firstRecoveryMs(snapshot, T0 + 15_000)).toBe(45_000);
    // Once the cooldown passes, the one transient connection serves again.
    expect(trayState(snapshot, running, T0 + 60_000)).toBe('cooling');
  });

  it('PROD-4: blocked when every provider is OPEN, serving again once the breaker lets a probe through', () => {
    const snapshot = snapshotOf({
      connections: [connectionRow('a'), connectionRow('b')],
      providers: [providerRow(anthropic, { state: 'OPEN', retryAfterMs: 30_000 })],
    });
    expect(trayState(snapshot, running, T0 + 29_000)).toBe('blocked');
    expect(trayState(snapshot, running, T0 + 30_000)).toBe('serving');
  });

  it('PROD-4: paused wins over every other state', () => {
    const snapshot = snapshotOf({ connections: [coolingRow('a', 60_000)] });
    expect(trayState(snapshot, { paused: true }, T0)).toBe('paused');
  });

  it('PROD-4: with only terminal connections nothing recovers on its own', () => {
    expect(firstRecoveryMs(snapshotOf({ connections: [terminalRow('a', 'credits_exhausted')] }), T0)).toBeNull();
  });
});
