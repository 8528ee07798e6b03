// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flush, fakeConnection } from '../../api/render-with-fake';
import { LIVE_REFRESH_MS } from '../../stores/overview-store';
import { claudeStatus, usage } from '../claude/claude-fixtures';
import { dimensionUsage, fakePool } from '../quota/quota-fixtures';
import { OverviewTab } from './overview-tab';
import { renderOverview } from './render-overview';

const NOW = 1_700_000_000_000;
const now = (): number => NOW;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The chart card's figures: what it plots, added up, and its legend as text. */
function chart(id: string): { total: number; lines: number; legend: string[] } {
  const figure = screen.getByTestId(`chart-${id}`);
  const legend = within(figure).queryByRole('list');
  return {
    total: Number(figure.dataset.total),
    lines: Number(figure.dataset.lines),
    legend: legend
      ? within(legend)
          .getAllByRole('listitem')
          .map((li) => li.textContent ?? '')
      : [],
  };
}

const stat = (label: string): string => screen.getByRole('group', { name: label }).textContent ?? '';

describe('Overview tab (issue 13 §4)', () => {
  it('renders requests and tokens by connection, rates, latency and the range totals', async () => {
    const { fake } = await renderOverview(<OverviewTab />, { now });
    expect(chart('requests')).toEqual({ total: 0, lines: 0, legend: [] });
    expect(screen.getByTestId('chart-requests').textContent).toContain('No requests in the last hour.');
    for (const [connection, keyName] of [
      ['max-1', 'alice'],
      ['max-1', 'bob'],
      ['glm', 'alice'],
    ] as const)
      fake.recordRequest({ connection, keyName, inputTokens: 100, outputTokens: 50, latencyMs: 400 });
    fake.recordRequest({ connection: null, keyName: null, status: 401, ts: NOW - 60_000 });
    await act(async () => {
      screen.getByRole('button', { name: 'Last day' }).click();
    });
    await flush();
    expect(chart('requests')).toEqual({ total: 4, lines: 3, legend: ['max-1 2', 'glm 1', '(no connection) 1'] });
    expect(chart('tokens').total).toBe(3 * 150);
    expect(chart('latency').legend).toEqual(['p50 400 ms', 'p95 400 ms']);
    expect(stat('Requests')).toContain('4');
    expect(stat('Error rate')).toContain('25 %');
    expect(stat('Tokens')).toContain('300 in · 150 out');
  });

  it('switches the charts to one line per key', async () => {
    const { fake } = await renderOverview(<OverviewTab />, {
      now,
      seed: { activity: [] },
    });
    fake.recordRequest({ connection: 'max-1', keyName: 'alice' });
    fake.recordRequest({ connection: 'max-1', keyName: 'alice' });
    fake.recordRequest({ connection: 'glm', keyName: 'ci' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Last week' }));
    });
    await flush();
    expect(chart('requests').legend).toEqual(['max-1 2', 'glm 1']);
    fireEvent.click(screen.getByRole('button', { name: 'By key' }));
    expect(chart('requests').legend).toEqual(['alice 2', 'ci 1']);
    expect(screen.getByRole('button', { name: 'By key' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('asks the core for the range picked, and says what a bucket is', async () => {
    const { inputsOf } = await renderOverview(<OverviewTab />, { now });
    expect(inputsOf('overview.series')).toEqual([{ range: 'hour' }]);
    expect(screen.getByTestId('chart-requests').textContent).toContain('per minute');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Last week' }));
    });
    await flush();
    expect(inputsOf('overview.series')).toEqual([{ range: 'hour' }, { range: 'week' }]);
    expect(screen.getByTestId('chart-requests').textContent).toContain('per hour');
    expect(Number(screen.getByTestId('chart-requests').dataset.buckets)).toBe(168);
  });

  it('refreshes live after requests finish, at most once per throttle window', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const { fake, inputsOf } = await renderOverview(<OverviewTab />, { now: () => Date.now() });
    expect(inputsOf('overview.series')).toHaveLength(1);
    act(() => {
      fake.recordRequest({ connection: 'max-1', ts: Date.now() });
      fake.recordRequest({ connection: 'max-1', ts: Date.now() });
    });
    await flush();
    // Both arrived inside the window opened by the first load: one refresh, once it closes.
    expect(inputsOf('overview.series')).toHaveLength(1);
    await act(async () => {
      vi.advanceTimersByTime(LIVE_REFRESH_MS.hour);
    });
    await flush();
    expect(inputsOf('overview.series')).toHaveLength(2);
    expect(chart('requests').total).toBe(2);
  });

  it('shows each Claude subscription with its usage windows', async () => {
    const max = fakeConnection('max-1', { kind: 'claude-oauth' });
    // The bars count down on the wall clock: put the resets ahead of it.
    const ahead = Date.now() - NOW;
    await renderOverview(<OverviewTab />, {
      now,
      seed: {
        connections: [max, fakeConnection('team-key')],
        claude: [claudeStatus(max.id, { usage: usage(0.42, ahead + 3_600_000, 0.1, ahead + 86_400_000) })],
      },
    });
    const card = screen.getByTestId('overview-claude-max-1');
    expect(within(card).getByRole('meter', { name: '5-hour usage' }).getAttribute('aria-valuenow')).toBe('42');
    expect(within(card).getByRole('meter', { name: 'Weekly usage' }).getAttribute('aria-valuenow')).toBe('10');
    expect(screen.queryByTestId('overview-claude-team-key')).toBeNull();
  });

  it('lists pools near saturation, fullest first, and says so when none is', async () => {
    const team = fakePool('team');
    const ci = fakePool('ci', { id: 'pool-ci' });
    const quiet = fakePool('quiet', { id: 'pool-quiet' });
    const { unmount } = await renderOverview(<OverviewTab />, {
      now,
      seed: {
        quotaPools: [quiet, team, ci],
        quotaUsage: {
          [team.id]: {
            poolId: team.id,
            name: 'team',
            at: NOW,
            saturationThreshold: 0.8,
            dimensions: [dimensionUsage({ consumedTotal: 18, globalUsedPercent: 0.9, mode: 'strict' })],
          },
          [ci.id]: {
            poolId: ci.id,
            name: 'ci',
            at: NOW,
            saturationThreshold: 0.8,
            dimensions: [dimensionUsage({ consumedTotal: 16, globalUsedPercent: 0.8 })],
          },
        },
      },
    });
    const panel = screen.getByRole('region', { name: 'Quota pools near saturation' });
    const items = within(panel).getAllByRole('listitem');
    expect(items.map((li) => li.dataset.testid)).toEqual(['overview-pool-team', 'overview-pool-ci']);
    expect(items[0]?.textContent).toContain('strict');
    expect(items[0]?.textContent).toContain('90 % · 18 of 20 requests / hour');
    expect(within(panel).getByRole('meter', { name: 'ci usage' }).getAttribute('aria-valuenow')).toBe('80');
    unmount();
    cleanup();
    await renderOverview(<OverviewTab />, { now, seed: { quotaPools: [quiet] } });
    expect(screen.getByRole('region', { name: 'Quota pools near saturation' }).textContent).toContain(
      'No pool is near its limit (1 pool, the fullest at 0 %).',
    );
  });

  it('says what failed when the core refuses the series, and tries again on request', async () => {
    await renderOverview(<OverviewTab />, { now, fail: { 'overview.series': 'storage unavailable' } });
    expect(screen.getByRole('alert').textContent).toContain('storage unavailable');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
