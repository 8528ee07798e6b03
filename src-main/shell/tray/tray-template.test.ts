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
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { activeLane, claudeStatus } from './claude-fixtures.testkit';
import { buildTrayTemplate, hasCountdown, trayTooltip, type TrayMenuItem, type TrayModel } from './tray-template';

const URL = 'http://127.0.0.1:7431';

function model(snapshot: CooldownSnapshot, extra: Partial<TrayModel> = {}): TrayModel {
  return {
    snapshot,
    info: { proxyUrl: URL, paused: false },
    summary: { requestsToday: 42, errorsToday: 0 },
    claude: [],
    openAtLogin: false,
    ...extra,
  };
}

const labels = (items: TrayMenuItem[]): string[] => items.map((i) => (i.type === 'separator' ? '—' : i.label));
function find(items: TrayMenuItem[], prefix: string): Exclude<TrayMenuItem, { type: 'separator' }> {
  const found = items.find((i) => i.type !== 'separator' && i.label.startsWith(prefix));
  if (!found || found.type === 'separator')
    throw new Error(`no item starting with "${prefix}" in ${labels(items).join(' | ')}`);
  return found;
}
const submenuOf = (item: TrayMenuItem): TrayMenuItem[] => (item.type === 'submenu' ? item.submenu : []);

describe('buildTrayTemplate', () => {
  it('PROD-4 PROD-13: serving — status with proxy URL and requests today, every entry in order', () => {
    const items = buildTrayTemplate(model(snapshotOf({ connections: [connectionRow('a')] })), T0);
    expect(labels(items)).toEqual([
      'Leeway — serving',
      `Proxy: ${URL}`,
      'Requests today: 42',
      '—',
      'Clear all cooldowns (0)',
      'Nothing is cooling',
      '—',
      'Pause proxy',
      '—',
      'Copy Claude Code setup',
      'Copy aider setup',
      'Copy agent setup',
      '—',
      'Open Leeway',
      'Open logs',
      'Start at login',
      '—',
      'Quit Leeway',
    ]);
    expect(find(items, 'Clear all cooldowns')).toMatchObject({ enabled: false, action: { kind: 'clear-all' } });
    expect(find(items, 'Leeway —')).toMatchObject({ enabled: false });
    expect(find(items, 'Pause proxy')).toMatchObject({ enabled: true, action: { kind: 'pause' } });
    expect(find(items, 'Copy Claude')).toMatchObject({ action: { kind: 'copy-claude-setup' } });
    expect(find(items, 'Copy aider')).toMatchObject({ action: { kind: 'copy-aider-setup' } });
    // ISSUE-23 §2: one entry per agent, each copying that agent's snippet.
    expect(submenuOf(find(items, 'Copy agent setup'))).toEqual(
      ['codex', 'opencode', 'Qwen Code', 'Gemini CLI', 'aider'].map((label, i) => ({
        type: 'normal',
        label,
        enabled: true,
        action: { kind: 'copy-agent-setup', agent: ['codex', 'opencode', 'qwen-code', 'gemini-cli', 'aider'][i] },
      })),
    );
    expect(find(items, 'Open Leeway')).toMatchObject({ action: { kind: 'open' } });
    expect(find(items, 'Open logs')).toMatchObject({ enabled: true, action: { kind: 'open-logs' } });
    expect(find(items, 'Quit')).toMatchObject({ action: { kind: 'quit' } });
    expect(find(items, 'Start at login')).toEqual({
      type: 'checkbox',
      label: 'Start at login',
      enabled: true,
      checked: false,
      action: { kind: 'toggle-login' },
    });
  });

  it('PROD-4: cooling — N counts transient items only and the submenu shows each with mm:ss left', () => {
    const snapshot = snapshotOf({
      connections: [coolingRow('fast', 83_000), terminalRow('dead', 'banned'), connectionRow('ok')],
      providers: [providerRow('openai@https://api.openai.com', { state: 'OPEN', retryAfterMs: 600_000 })],
      models: [lockRow('ok', 'claude-opus', 5_000)],
    });
    const items = buildTrayTemplate(model(snapshot, { summary: { requestsToday: 7, errorsToday: 2 } }), T0 + 3_000);
    expect(find(items, 'Leeway —').label).toBe('Leeway — serving, 3 cooling, 1 need attention');
    expect(find(items, 'Requests today').label).toBe('Requests today: 7 (2 failed)');
    // COOL-10: the banned connection is listed but never counted in "Clear all".
    expect(find(items, 'Clear all cooldowns')).toMatchObject({ label: 'Clear all cooldowns (3)', enabled: true });
    const submenu = submenuOf(find(items, 'Cooling ('));
    expect(find(items, 'Cooling (').label).toBe('Cooling (3) · needs attention (1)');
    expect(labels(submenu)).toEqual([
      'fast — cooling, 01:20 left',
      'Provider openai · api.openai.com — circuit open, 09:57 left',
      'ok · claude-opus — locked, 00:02 left',
      '—',
      'dead — banned',
    ]);
    // Each cooling entry offers "Probe now" first (issue 13 §8); the last item clears or resets.
    const probes = submenu
      .filter((i) => i.type === 'submenu')
      .map((i) => submenuOf(i)[0])
      .map((i) => (i && i.type !== 'separator' ? i.label : null));
    expect(probes.filter((l) => l === 'Probe now (one cheap request)').length).toBeGreaterThan(0);
    expect(submenu.filter((i) => i.type === 'submenu').map((i) => submenuOf(i).at(-1))).toEqual([
      {
        type: 'normal',
        label: 'Clear cooldown',
        enabled: true,
        action: { kind: 'clear-connection', connection: 'fast' },
      },
      {
        type: 'normal',
        label: 'Clear provider cooldown',
        enabled: true,
        action: { kind: 'clear-provider', provider: 'openai@https://api.openai.com' },
      },
      {
        type: 'normal',
        label: 'Clear model lockout',
        enabled: true,
        action: { kind: 'clear-model', key: 'anthropic:id-ok:claude-opus' },
      },
      {
        type: 'normal',
        label: 'Reset connection',
        enabled: true,
        action: { kind: 'reset-connection', connection: 'dead' },
      },
    ]);
    expect(hasCountdown(model(snapshot), T0)).toBe(true);
  });

  it('PROD-4: blocked — the status says when the first connection is back; clear stays available', () => {
    const snapshot = snapshotOf({ connections: [coolingRow('a', 125_000), terminalRow('b', 'credits_exhausted')] });
    const items = buildTrayTemplate(model(snapshot), T0 + 5_000);
    expect(find(items, 'Leeway —').label).toBe('Leeway — blocked: first connection back in 02:00');
    expect(find(items, 'Clear all cooldowns')).toMatchObject({ label: 'Clear all cooldowns (1)', enabled: true });
    expect(labels(submenuOf(find(items, 'Cooling (')))).toEqual([
      'a — cooling, 02:00 left',
      '—',
      'b — credits exhausted',
    ]);
    expect(trayTooltip(model(snapshot), T0)).toBe(`Leeway (blocked) — ${URL}`);
  });

  it('PROD-4: blocked by terminal states only — nothing to clear, each one offers Reset connection', () => {
    const snapshot = snapshotOf({ connections: [terminalRow('a', 'expired'), terminalRow('b', 'banned')] });
    const items = buildTrayTemplate(model(snapshot), T0);
    expect(find(items, 'Leeway —').label).toBe('Leeway — blocked: no connection can serve');
    expect(find(items, 'Clear all cooldowns')).toMatchObject({ label: 'Clear all cooldowns (0)', enabled: false });
    const submenu = submenuOf(find(items, 'Cooling ('));
    expect(labels(submenu)).toEqual(['a — credential expired', 'b — banned']);
    expect(submenu.map((i) => submenuOf(i)[0])).toMatchObject([
      { label: 'Reset connection', action: { kind: 'reset-connection', connection: 'a' } },
      { label: 'Reset connection', action: { kind: 'reset-connection', connection: 'b' } },
    ]);
    expect(hasCountdown(model(snapshot), T0)).toBe(false);
  });

  it('COOL-10: a terminal status the tray has no words for is still listed for reset, never counted as clearable', () => {
    const odd = terminalRow('x', 'banned');
    const snapshot = snapshotOf({
      connections: [{ ...odd, testStatus: 'suspended' as typeof odd.testStatus }, connectionRow('ok')],
    });
    const items = buildTrayTemplate(model(snapshot), T0);
    expect(find(items, 'Clear all cooldowns').label).toBe('Clear all cooldowns (0)');
    expect(labels(submenuOf(find(items, 'Cooling (')))).toEqual(['x — suspended']);
  });

  it('PROD-4: paused — the menu offers Resume proxy instead of Pause proxy', () => {
    const items = buildTrayTemplate(
      model(snapshotOf({ connections: [coolingRow('a', 1_000)] }), { info: { proxyUrl: URL, paused: true } }),
      T0,
    );
    expect(find(items, 'Leeway —').label).toBe('Leeway — paused (requests get 503)');
    expect(find(items, 'Resume proxy')).toMatchObject({ action: { kind: 'resume' } });
    expect(labels(items)).not.toContain('Pause proxy');
  });

  it('PROD-4: Start at login shows its state, and is disabled where the platform has none', () => {
    const on = buildTrayTemplate(model(snapshotOf(), { openAtLogin: true }), T0);
    expect(find(on, 'Start at login')).toMatchObject({ checked: true, enabled: true });
    const unsupported = buildTrayTemplate(model(snapshotOf(), { openAtLogin: null }), T0);
    expect(find(unsupported, 'Start at login')).toMatchObject({ checked: false, enabled: false });
  });

  it('PROD-4 PROD-5: each Claude connection shows its 5-hour and weekly usage with the 5-hour reset countdown', () => {
    const claude = [
      { name: 'max-1', status: claudeStatus('id-max-1', { fiveHour: 0.72, resetsInMs: 5_025_000, week: 0.4 }) },
      { name: 'pro', status: claudeStatus('id-pro', null) },
    ];
    const items = buildTrayTemplate(model(snapshotOf(), { claude }), T0);
    expect(labels(items).slice(0, 5)).toEqual([
      'Leeway — serving',
      `Proxy: ${URL}`,
      'Requests today: 42',
      'Claude usage',
      '—',
    ]);
    expect(labels(submenuOf(find(items, 'Claude usage')))).toEqual([
      'max-1 — 5h 72% (resets 1:23:45) · week 40%',
      '—',
      'pro — no usage seen yet',
    ]);
    expect(submenuOf(find(items, 'Claude usage'))[0]).toMatchObject({ type: 'normal', enabled: false });
    // One second later the countdown has moved; past the reset the stale figure is dropped.
    const later = buildTrayTemplate(model(snapshotOf(), { claude }), T0 + 1_000);
    expect(labels(submenuOf(find(later, 'Claude usage')))[0]).toBe('max-1 — 5h 72% (resets 1:23:44) · week 40%');
    const after = buildTrayTemplate(model(snapshotOf(), { claude }), T0 + 5_025_000);
    expect(labels(submenuOf(find(after, 'Claude usage')))[0]).toBe('max-1 — 5h reset · week 40%');
  });

  it('LOWP-5 LOWP-8: the lane shows as "low priority until HH:MM" or a slot wait with its next try', () => {
    const until = new Date(2023, 10, 14, 14, 5).getTime(); // 14:05 local time, whatever the zone
    const claude = [
      { name: 'a', status: claudeStatus('id-a', { fiveHour: 1, resetsInMs: 600_000, week: 0.5 }, activeLane(until)) },
      {
        name: 'b',
        status: claudeStatus('id-b', null, {
          ...activeLane(until),
          kind: 'waiting',
          attempts: 2,
          waitingSinceMs: T0 - 30_000,
          nextTryAtMs: T0 + 15_000,
        }),
      },
      { name: 'c', status: claudeStatus('id-c', null, { kind: 'ended', reason: 'weekly', atMs: T0 }) },
    ];
    const items = buildTrayTemplate(model(snapshotOf(), { claude }), T0);
    expect(find(items, 'Claude usage').label).toBe('Claude usage · low priority');
    expect(labels(submenuOf(find(items, 'Claude usage')))).toEqual([
      'a — 5h 100% (resets 10:00) · week 50%',
      'a — low priority until 14:05',
      '—',
      'b — no usage seen yet',
      'b — low priority: waiting for a slot (attempt 2, next try in 00:15)',
      '—',
      'c — no usage seen yet',
    ]);
  });

  it('COOL-10 PROD-4: a Claude login the core refused shows "needs sign-in", which opens the window to re-import', () => {
    const snapshot = snapshotOf({
      connections: [connectionRow('max-1', { testStatus: 'needs_reauth', terminal: true }), connectionRow('ok')],
    });
    const claude = [
      { name: 'max-1', status: claudeStatus('id-max-1', { fiveHour: 0.2, resetsInMs: 60_000, week: 0.1 }) },
    ];
    const items = buildTrayTemplate(model(snapshot, { claude }), T0);
    const claudeMenu = find(items, 'Claude usage');
    expect(claudeMenu.label).toBe('Claude usage · 1 needs sign-in');
    expect(submenuOf(claudeMenu)[1]).toEqual({
      type: 'normal',
      label: 'max-1 — needs sign-in (open Leeway to re-import)',
      enabled: true,
      action: { kind: 'open' },
    });
    expect(labels(submenuOf(find(items, 'Cooling (')))).toEqual(['max-1 — needs a new sign-in']);
  });

  it('PROD-4: a Claude reset ahead keeps the menu ticking; none once it passed and no slot wait is running', () => {
    const claude = [{ name: 'a', status: claudeStatus('id-a', { fiveHour: 0.5, resetsInMs: 2_000, week: 0.5 }) }];
    expect(hasCountdown(model(snapshotOf(), { claude }), T0)).toBe(true);
    expect(hasCountdown(model(snapshotOf(), { claude }), T0 + 2_000)).toBe(false);
    expect(hasCountdown(model(snapshotOf(), { claude: [] }), T0)).toBe(false);
  });

  it('PROD-4: the template is plain data (serialisable as JSON without loss)', () => {
    const items = buildTrayTemplate(model(snapshotOf({ connections: [coolingRow('a', 1_000)] })), T0);
    expect(JSON.parse(JSON.stringify(items))).toEqual(items);
  });

  it('PROD-4: pools near saturation follow the requests line, three at most and the rest counted', () => {
    const quota = ['a', 'b', 'c', 'd', 'e'].map((pool, i) => ({
      pool,
      usedFraction: 0.9 - i * 0.05,
      unit: 'requests' as const,
      window: 'hourly' as const,
    }));
    const items = buildTrayTemplate(model(snapshotOf({ connections: [connectionRow('a')] }), { quota }), T0);
    expect(labels(items).slice(2, 8)).toEqual([
      'Requests today: 42',
      'Quota: a 90 % (hourly requests)',
      'Quota: b 85 % (hourly requests)',
      'Quota: c 80 % (hourly requests)',
      '…and 2 more pools near saturation',
      '—',
    ]);
  });
});
