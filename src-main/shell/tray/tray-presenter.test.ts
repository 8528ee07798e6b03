import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src-shared/contract/events';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { connectionRow, coolingRow, manualClock, recordingRouter, snapshotOf, T0 } from '../shell-fixtures.testkit';
import { claudeStatus } from './claude-fixtures.testkit';
import { createTrayPresenter, type TrayView } from './tray-presenter';
import type { TrayMenuItem } from './tray-template';

function setup(snapshot: CooldownSnapshot = snapshotOf({ connections: [connectionRow('a')] })) {
  const clock = manualClock();
  const answers: Record<string, unknown> = {
    'cooldowns.list': snapshot,
    'app.info': { proxyUrl: 'http://127.0.0.1:7431', paused: false },
    'activity.summary': { requestsToday: 1, errorsToday: 0 },
    'connections.list': [],
    'claude.status': [],
  };
  const router = recordingRouter(answers);
  const listeners = new Set<(e: CoreEvent) => void>();
  const views: TrayView[] = [];
  const presenter = createTrayPresenter({
    router,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    loginItem: { supported: true, get: () => true },
    render: (v) => views.push(v),
    clock,
  });
  const emit = (event: CoreEvent) => listeners.forEach((l) => l(event));
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  const statusLine = (v: TrayView | undefined) => (v?.template[0]?.type === 'normal' ? v.template[0].label : null);
  return { clock, router, answers, views, presenter, emit, flush, listeners, statusLine };
}

describe('tray presenter', () => {
  it('PROD-4 ISSUE-24: draws once from cooldowns.list, app.info, activity.summary, connections.list, claude.status, held.list and quota.listPools, with the login item state', async () => {
    const t = setup();
    await t.presenter.start();
    expect(t.router.calls.map((c) => c.method).sort()).toEqual([
      'activity.summary',
      'app.info',
      'claude.status',
      'connections.list',
      'cooldowns.list',
      'held.list',
      'quota.listPools',
    ]);
    expect(t.views).toHaveLength(1);
    expect(t.views[0]?.state).toBe('serving');
    expect(t.views[0]?.template).toContainEqual(expect.objectContaining({ label: 'Start at login', checked: true }));
    expect(t.clock.pending()).toBe(0);
  });

  it('PROD-4: cooldowns.changed and app.paused redraw from their payloads, at most once a second', async () => {
    const t = setup();
    await t.presenter.start();
    t.clock.advance(5_000);
    t.emit({ type: 'app.paused', payload: { paused: true } });
    expect(t.views.at(-1)?.state).toBe('paused');
    const cooling = snapshotOf({ connections: [coolingRow('a', 60_000)] }, T0 + 5_000);
    t.emit({ type: 'app.paused', payload: { paused: false } });
    t.emit({ type: 'cooldowns.changed', payload: { snapshot: cooling } });
    expect(t.views).toHaveLength(2);
    t.clock.advance(1_000);
    expect(t.views).toHaveLength(3);
    expect(t.views.at(-1)?.state).toBe('blocked');
    expect(t.router.calls).toHaveLength(7);
  });

  it('PROD-4: while something cools the menu redraws every second so the countdown moves, then stops', async () => {
    const t = setup(snapshotOf({ connections: [coolingRow('a', 3_000), connectionRow('b')] }));
    await t.presenter.start();
    expect(t.statusLine(t.views.at(-1))).toBe('Leeway — serving, 1 cooling');
    t.clock.advance(1_000);
    t.clock.advance(1_000);
    const submenu = t.views.at(-1)?.template.find((i) => i.type === 'submenu');
    expect(submenu?.type === 'submenu' ? submenu.submenu[0] : null).toMatchObject({ label: 'a — cooling, 00:01 left' });
    t.clock.advance(1_000);
    expect(t.views).toHaveLength(4);
    expect(t.views.at(-1)?.state).toBe('serving');
    expect(t.clock.pending()).toBe(0);
    t.clock.advance(10_000);
    expect(t.views).toHaveLength(4);
  });

  it('PROD-4: a request burst refetches the summary once per second, not once per request', async () => {
    const t = setup();
    await t.presenter.start();
    t.clock.advance(2_000);
    const entry = { id: 1 } as unknown as Extract<CoreEvent, { type: 'activity.request' }>['payload']['entry'];
    for (let i = 0; i < 100; i++) t.emit({ type: 'activity.request', payload: { entry } });
    await t.flush();
    t.clock.advance(1_000);
    await t.flush();
    expect(t.router.calls.filter((c) => c.method === 'activity.summary')).toHaveLength(3);
    expect(t.views.length).toBeLessThanOrEqual(3);
  });

  it('PROD-4: connections switched off are left out, so they cannot keep the tray from showing blocked', async () => {
    const t = setup(snapshotOf({ connections: [coolingRow('a', 60_000), connectionRow('off')] }));
    t.answers['connections.list'] = [
      { id: 'id-a', enabled: true },
      { id: 'id-off', enabled: false },
    ];
    await t.presenter.start();
    expect(t.views.at(-1)?.state).toBe('blocked');
    t.clock.advance(5_000);
    const enabled = [
      { id: 'id-a', enabled: true },
      { id: 'id-off', enabled: true },
    ] as ConnectionView[];
    t.answers['connections.list'] = enabled;
    t.emit({ type: 'connections.changed', payload: { connections: enabled } });
    await t.flush();
    expect(t.views.at(-1)?.state).toBe('cooling');
  });

  it('PROD-4 PROD-5: claude.status names each subscription; claude.changed redraws from its payload and the reset counts down', async () => {
    const t = setup();
    t.answers['connections.list'] = [{ id: 'id-max-1', name: 'max-1', enabled: true }];
    t.answers['claude.status'] = [claudeStatus('id-max-1', { fiveHour: 0.72, resetsInMs: 5_025_000, week: 0.4 })];
    const claudeLines = (v: TrayView | undefined): string[] => {
      const menu = v?.template.find((i) => i.type === 'submenu' && i.label.startsWith('Claude usage'));
      return menu?.type === 'submenu'
        ? menu.submenu.map((i: TrayMenuItem) => (i.type === 'separator' ? '—' : i.label))
        : [];
    };
    await t.presenter.start();
    expect(claudeLines(t.views.at(-1))).toEqual(['max-1 — 5h 72% (resets 1:23:45) · week 40%']);
    t.clock.advance(1_000);
    expect(claudeLines(t.views.at(-1))).toEqual(['max-1 — 5h 72% (resets 1:23:44) · week 40%']);
    const calls = t.router.calls.length;
    t.emit({
      type: 'claude.changed',
      payload: { status: [claudeStatus('id-max-1', { fiveHour: 0.8, resetsInMs: 5_025_000, week: 0.41 })] },
    });
    t.clock.advance(1_000);
    expect(claudeLines(t.views.at(-1))).toEqual(['max-1 — 5h 80% (resets 1:23:43) · week 41%']);
    expect(t.router.calls).toHaveLength(calls);
  });

  it('PROD-4: a core that cannot answer claude.status still gets a tray, without Claude lines', async () => {
    const t = setup();
    t.answers['claude.status'] = new Error('unknown method');
    await t.presenter.start();
    expect(t.views).toHaveLength(1);
    expect(t.views[0]?.template.some((i) => i.type === 'submenu' && i.label.startsWith('Claude'))).toBe(false);
  });

  it('PROD-4: stop unsubscribes and cancels every timer', async () => {
    const t = setup(snapshotOf({ connections: [coolingRow('a', 30_000)] }));
    await t.presenter.start();
    expect(t.clock.pending()).toBe(1);
    t.presenter.stop();
    expect(t.listeners.size).toBe(0);
    expect(t.clock.pending()).toBe(0);
  });

  it('ISSUE-8: storage.lost puts a loud first line in the menu and the tooltip, and no contract read is needed', async () => {
    const t = setup();
    await t.presenter.start();
    t.clock.advance(5_000);
    const message = 'Storage unavailable: /data was deleted; restart Leeway';
    t.emit({ type: 'storage.lost', payload: { dataDir: '/data', message } });
    const view = t.views.at(-1);
    expect(t.statusLine(view)).toBe('⚠ Data directory lost — nothing is saved; restart Leeway');
    expect(view?.template[1]).toMatchObject({ label: message, enabled: false });
    expect(view?.tooltip).toContain('Data directory lost');
    expect(t.router.calls).toHaveLength(7);
  });

  it('PROD-4 QUI-1: a pool near saturation shows as "Quota: team 85 % (5h tokens)", re-read at most every 15 s, and goes once it slides back', async () => {
    const t = setup();
    const usage = (fraction: number) => ({
      poolId: 'pool-team',
      name: 'team',
      at: T0,
      saturationThreshold: 0.5,
      dimensions: [
        {
          dimensionKey: 'pool-team:tokens:5h',
          unit: 'tokens',
          window: '5h',
          windowMs: 18_000_000,
          limit: 1_000_000,
          consumedTotal: fraction * 1_000_000,
          globalUsedPercent: fraction,
          saturationSource: 'counter',
          mode: fraction >= 0.5 ? 'strict' : 'generous',
          keys: [],
          burnRate: { perSecond: 0, timeToExhaustionMs: null, samples: 0 },
          history: [],
        },
      ],
    });
    t.answers['quota.listPools'] = [{ id: 'pool-team', name: 'team' }];
    t.answers['quota.poolUsage'] = usage(0.85);
    const quotaLabels = (v: TrayView | undefined): string[] =>
      (v?.template ?? []).flatMap((i) => (i.type === 'normal' && i.label.startsWith('Quota:') ? [i.label] : []));
    await t.presenter.start();
    expect(quotaLabels(t.views.at(-1))).toEqual(['Quota: team 85 % (5h tokens)']);
    expect(t.router.calls.filter((c) => c.method === 'quota.poolUsage')).toEqual([
      { method: 'quota.poolUsage', input: { id: 'pool-team' } },
    ]);
    const line = t.views.at(-1)?.template.find((i) => i.type === 'normal' && i.label.startsWith('Quota:'));
    expect(line).toMatchObject({ enabled: true, action: { kind: 'open' } });

    // Events refetch the model (at most each second), but the pools only once per 15 s.
    t.clock.advance(2_000);
    t.emit({ type: 'connections.changed', payload: { connections: [] } });
    await t.flush();
    t.clock.advance(1_000);
    await t.flush();
    expect(t.router.calls.filter((c) => c.method === 'quota.poolUsage')).toHaveLength(1);

    t.answers['quota.poolUsage'] = usage(0.3);
    t.clock.advance(15_000);
    await t.flush();
    t.clock.advance(1_000);
    await t.flush();
    expect(t.router.calls.filter((c) => c.method === 'quota.poolUsage')).toHaveLength(2);
    expect(quotaLabels(t.views.at(-1))).toEqual([]);
    expect(t.clock.pending()).toBe(0);
  });

  it('PROD-4: a core without the quota methods still gets a tray, without quota lines', async () => {
    const t = setup();
    t.answers['quota.listPools'] = new Error('unknown method');
    await t.presenter.start();
    expect(t.views).toHaveLength(1);
    expect(t.views[0]?.template.some((i) => i.type === 'normal' && i.label.startsWith('Quota:'))).toBe(false);
    expect(t.router.calls.some((c) => c.method === 'quota.poolUsage')).toBe(false);
  });

  it('ISSUE-24: held.changed redraws from its payload: "Waiting now (N)" lists each held request with its actions, counting down', async () => {
    const t = setup();
    await t.presenter.start();
    expect(t.views[0]?.template.some((i) => i.type === 'submenu' && i.label.startsWith('Waiting now'))).toBe(false);
    t.clock.advance(5_000);
    const row = {
      id: 'h1',
      since: T0,
      keyName: 'laptop',
      model: 'claude-sonnet-4-5',
      session: 's',
      stream: true,
      waitsFor: 'cooldown' as const,
      what: "max-2's cooldown to end at 14:03:10 UTC",
      until: T0 + 5_000 + 41_000,
      actions: ['cancel' as const, 'go-now' as const],
    };
    t.emit({ type: 'held.changed', payload: { held: [row] } });
    const menu = t.views.at(-1)?.template.find((i) => i.type === 'submenu' && i.label === 'Waiting now (1)');
    const entry = menu?.type === 'submenu' ? menu.submenu[0] : undefined;
    expect(entry).toMatchObject({
      type: 'submenu',
      label: "claude-sonnet-4-5 (laptop) — max-2's cooldown to end at 14:03:10 UTC, 41 s left",
    });
    expect(entry?.type === 'submenu' ? entry.submenu : []).toEqual([
      { type: 'normal', label: 'Cancel', enabled: true, action: { kind: 'held', id: 'h1', action: 'cancel' } },
      {
        type: 'normal',
        label: 'Use any connection now',
        enabled: true,
        action: { kind: 'held', id: 'h1', action: 'go-now' },
      },
    ]);
    // A countdown: the menu redraws each second while a held request has an end.
    expect(t.clock.pending()).toBeGreaterThan(0);
    t.emit({ type: 'held.changed', payload: { held: [] } });
    t.clock.advance(1_000);
    expect(t.views.at(-1)?.template.some((i) => i.type === 'submenu' && i.label.startsWith('Waiting now'))).toBe(false);
  });
});
