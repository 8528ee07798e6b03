import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src-shared/contract/events';
import type { UsageSummary } from '../../../src-shared/domain/overview';
import type { ContractRouter } from '../contract-call';
import { ok } from '../../../src-shared/contract/errors';
import {
  combo,
  connectionRow,
  coolingRow,
  recordingRouter,
  snapshotOf,
  T0,
  terminalRow,
} from '../shell-fixtures.testkit';
import { NOTIFIER_TICK_MS } from './notifier';
import { createNotifier } from './notifier';
import type { ShellNotification } from './notifications-for';

describe('notifier', () => {
  it('COOL-7 ROUTE-6: compares each cooldowns.changed with the one before, starting from cooldowns.list', async () => {
    const router = recordingRouter({
      'combos.list': [combo('pair', ['a', 'b'])],
      'cooldowns.list': snapshotOf({ connections: [connectionRow('a'), terminalRow('b', 'banned')] }),
    });
    const listeners: ((e: CoreEvent) => void)[] = [];
    const shown: ShellNotification[] = [];
    const notifier = createNotifier({
      router,
      subscribe: (l) => (listeners.push(l), () => listeners.splice(0)),
      show: (n) => shown.push(n),
    });
    await notifier.start();
    const emit = (e: CoreEvent) => listeners.forEach((l) => l(e));

    const cooling = snapshotOf({ connections: [coolingRow('a', 60_000), terminalRow('b', 'banned')] });
    emit({ type: 'cooldowns.changed', payload: { snapshot: cooling } });
    emit({ type: 'cooldowns.changed', payload: { snapshot: cooling } });
    expect(shown.map((n) => n.title)).toEqual(['pair: every connection is unavailable']);

    emit({ type: 'combos.changed', payload: { combos: [] } });
    emit({
      type: 'cooldowns.changed',
      payload: { snapshot: snapshotOf({ connections: [connectionRow('a'), terminalRow('b', 'banned')] }) },
    });
    emit({ type: 'cooldowns.changed', payload: { snapshot: cooling } });
    expect(shown).toHaveLength(1);

    notifier.stop();
    expect(listeners).toHaveLength(0);
  });

  it('issue 13 §8: the timer reads overview.usage and notices a cooldown that ended by time', async () => {
    let used = 50;
    const usage = (): UsageSummary => ({
      at: T0,
      connections: [
        {
          name: 'max-1',
          kind: 'claude-oauth',
          enabled: true,
          observedAt: T0,
          status: 'allowed',
          windows: [{ window: '5h', unit: 'percent', used, limit: 100, resetsAt: T0 + 7_200_000, status: null }],
        },
      ],
      pools: [],
    });
    const answers: Record<string, () => unknown> = {
      'combos.list': () => [],
      'connections.list': () => [],
      'cooldowns.list': () => snapshotOf({ connections: [coolingRow('a', 120_000)] }),
      'overview.usage': usage,
    };
    const router: ContractRouter = { call: (method) => Promise.resolve(ok(answers[method]?.() ?? null)) };
    let now = T0;
    const ticks: { run: () => void; ms: number }[] = [];
    const shown: ShellNotification[] = [];
    const notifier = createNotifier({
      router,
      subscribe: () => () => {},
      show: (n) => shown.push(n),
      now: () => now,
      every: (run, ms) => (ticks.push({ run, ms }), () => ticks.splice(0)),
    });
    await notifier.start();
    expect(ticks.map((t) => t.ms)).toEqual([NOTIFIER_TICK_MS]);
    const tick = async (at: number) => {
      now = at;
      ticks[0]?.run();
      await new Promise((resolve) => setImmediate(resolve));
    };

    used = 96;
    await tick(T0 + 30_000);
    expect(shown.map((n) => n.title)).toEqual(['max-1: 5-hour window at 96 %']);
    await tick(T0 + 60_000);
    expect(shown).toHaveLength(1);

    await tick(T0 + 120_000);
    expect(shown.map((n) => n.title)).toEqual(['max-1: 5-hour window at 96 %', 'a is available again']);
    notifier.stop();
    expect(ticks).toEqual([]);
  });
});
