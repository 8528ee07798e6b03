import { describe, expect, it } from 'vitest';
import { connectionRow, coolingRow, providerRow, snapshotOf, T0, terminalRow } from '../shell-fixtures.testkit';
import { recoveryAlerts, type OutageState } from './recovery-alerts';

const PROVIDER = 'anthropic@https://api.anthropic.com';

describe('connection recovered notifications (issue 13 §8)', () => {
  it('COOL-2: a connection out for a while is announced once when its cooldown has run out', () => {
    const cooling = snapshotOf({ connections: [coolingRow('a', 120_000), connectionRow('b')] });
    const first = recoveryAlerts(cooling, new Map(), T0);
    expect(first.notifications).toEqual([]);
    expect(recoveryAlerts(cooling, first.state, T0 + 60_000).notifications).toEqual([]);
    // No new snapshot: the cooldown ends by time and the timer's check sees it.
    const back = recoveryAlerts(cooling, first.state, T0 + 120_000);
    expect(back.notifications).toEqual([
      { title: 'a is available again', body: 'It was unavailable for 02:00; requests go to it again.' },
    ]);
    expect(recoveryAlerts(cooling, back.state, T0 + 130_000).notifications).toEqual([]);
  });

  it('COOL-2: a short cooldown coming back is routine and says nothing', () => {
    const cooling = snapshotOf({ connections: [coolingRow('a', 10_000)] });
    const first = recoveryAlerts(cooling, new Map(), T0);
    expect(recoveryAlerts(cooling, first.state, T0 + 10_000).notifications).toEqual([]);
  });

  it('COOL-10 BRK-7: a reset terminal state and a closed breaker count as recovery too', () => {
    const down = snapshotOf({
      connections: [terminalRow('banned-1', 'banned'), connectionRow('b')],
      providers: [providerRow(PROVIDER, { state: 'OPEN', retryAfterMs: 600_000 })],
    });
    const first = recoveryAlerts(down, new Map(), T0);
    expect([...first.state.values()].map((o) => o.name)).toEqual(['banned-1', 'b']);
    const healed = snapshotOf({ connections: [connectionRow('banned-1'), connectionRow('b')] }, T0 + 300_000);
    expect(recoveryAlerts(healed, first.state, T0 + 300_000).notifications.map((n) => n.title)).toEqual([
      'banned-1 is available again',
      'b is available again',
    ]);
  });

  it('COOL-2: a connection that was removed while out is forgotten without a word', () => {
    const start: OutageState = new Map([['id-gone', { name: 'gone', since: T0 }]]);
    const decided = recoveryAlerts(snapshotOf({ connections: [connectionRow('a')] }), start, T0 + 600_000);
    expect(decided.notifications).toEqual([]);
    expect(decided.state.size).toBe(0);
  });
});
