import { describe, expect, it } from 'vitest';
import { combo, connectionRow, coolingRow, lockRow, snapshotOf, T0, terminalRow } from '../shell-fixtures.testkit';
import { capNotifications, notificationsFor } from './notifications-for';

const healthy = snapshotOf({ connections: [connectionRow('a'), connectionRow('b'), connectionRow('c')] });

describe('notificationsFor', () => {
  it('COOL-7: a connection becoming banned, expired or out of credits is announced once', () => {
    const next = snapshotOf(
      {
        connections: [
          terminalRow('a', 'banned', 'This organization has been disabled.'),
          terminalRow('b', 'expired'),
          terminalRow('c', 'credits_exhausted'),
        ],
      },
      T0 + 1_000,
    );
    const shown = notificationsFor(healthy, next, []);
    expect(shown.map((n) => n.title)).toEqual(['a was banned', 'b credential expired', 'c is out of credits']);
    expect(shown[0]?.body).toContain('This organization has been disabled.');
    expect(shown[0]?.body).toContain('Reset connection');
    // The same state in the next snapshot is not a transition.
    expect(notificationsFor(next, { ...next, now: T0 + 2_000 }, [])).toEqual([]);
  });

  it('COOL-7: moving from one terminal state to another is a new transition; clearing one is silent', () => {
    const banned = snapshotOf({ connections: [terminalRow('a', 'banned')] });
    const expired = snapshotOf({ connections: [terminalRow('a', 'expired')] });
    expect(notificationsFor(banned, expired, []).map((n) => n.title)).toEqual(['a credential expired']);
    expect(notificationsFor(expired, snapshotOf({ connections: [connectionRow('a')] }), [])).toEqual([]);
  });

  it('ROUTE-6: a combo whose every connection becomes unavailable is announced with when the first is back', () => {
    const combos = [combo('coding', ['a', 'b']), combo('other', ['c'])];
    const next = snapshotOf({
      connections: [coolingRow('a', 90_000, { id: 'id-a' }), coolingRow('b', 30_000), connectionRow('c')],
    });
    expect(notificationsFor(healthy, next, combos)).toEqual([
      {
        title: 'coding: every connection is unavailable',
        body: 'Requests to coding wait or fail; the first is back in 00:30.',
      },
    ]);
    expect(notificationsFor(next, { ...next, now: T0 + 1_000 }, combos)).toEqual([]);
  });

  it('ROUTE-6: one target still serving keeps a combo quiet; a locked pinned model counts as unavailable', () => {
    const combos = [combo('pinned', [{ connection: 'a', model: 'claude-opus' }, 'b'])];
    const partly = snapshotOf({ connections: [connectionRow('a'), coolingRow('b', 30_000), connectionRow('c')] });
    expect(notificationsFor(healthy, partly, combos)).toEqual([]);
    const locked = snapshotOf({
      connections: [connectionRow('a'), coolingRow('b', 30_000), connectionRow('c')],
      models: [lockRow('a', 'claude-opus', 60_000)],
    });
    expect(notificationsFor(partly, locked, combos).map((n) => n.title)).toEqual([
      'pinned: every connection is unavailable',
    ]);
  });

  it('ROUTE-6: a combo blocked only by terminal states says none recovers on its own', () => {
    const next = snapshotOf({
      connections: [terminalRow('a', 'banned'), terminalRow('b', 'expired'), connectionRow('c')],
    });
    const shown = notificationsFor(healthy, next, [combo('pair', ['a', 'b'])]);
    expect(shown.at(-1)).toEqual({
      title: 'pair: every connection is unavailable',
      body: 'Requests to pair wait or fail; none recovers without a reset.',
    });
  });

  it('COOL-7: a terminal status without its own text still gets a notification', () => {
    const row = terminalRow('a', 'banned');
    const next = snapshotOf({ connections: [{ ...row, testStatus: 'suspended' as typeof row.testStatus }] });
    expect(notificationsFor(healthy, next, [])).toEqual([
      { title: 'a is suspended', body: 'It needs a person: fix it, then use Reset connection in Leeway.' },
    ]);
  });

  it('PROD-4: the first snapshot is the baseline, so starting Leeway announces nothing', () => {
    expect(
      notificationsFor(null, snapshotOf({ connections: [terminalRow('a', 'banned')] }), [combo('x', ['a'])]),
    ).toEqual([]);
  });

  it('PROD-4: a burst is capped to a few notifications and one that counts the rest', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ title: `t${i}`, body: '' }));
    const capped = capNotifications(many);
    expect(capped.map((n) => n.title)).toEqual(['t0', 't1', '5 more Leeway alerts']);
    expect(capNotifications(many.slice(0, 3))).toHaveLength(3);
  });
});
