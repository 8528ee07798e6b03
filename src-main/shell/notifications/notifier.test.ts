import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src-shared/contract/events';
import { combo, connectionRow, coolingRow, recordingRouter, snapshotOf, terminalRow } from '../shell-fixtures';
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
});
