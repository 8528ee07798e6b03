// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { OverviewTab } from './overview-tab';
import { LIVE_REFRESH_MS } from './use-overview';

const NOW = 1_700_000_000_000;
const now = (): number => NOW;

afterEach(() => {
  cleanup();
  closeCores();
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

/** The tab over a real core whose log the test fills with `core.recordRequest`. */
const renderTab = async (clock: () => number) => renderWithCore(<OverviewTab />, await startCore(clock));

describe('Overview charts (issue 13 §4), aggregated by the real handlers', () => {
  it('renders requests and tokens by connection, rates, latency and the range totals', async () => {
    const { core } = await renderTab(now);
    expect(chart('requests')).toEqual({ total: 0, lines: 0, legend: [] });
    expect(screen.getByTestId('chart-requests').textContent).toContain('No requests in the last hour.');
    for (const [connection, keyName] of [
      ['max-1', 'alice'],
      ['max-1', 'bob'],
      ['glm', 'alice'],
    ] as const)
      core.recordRequest({ connection, keyName, inputTokens: 100, outputTokens: 50, latencyMs: 400 });
    core.recordRequest({ connection: null, keyName: null, status: 401, ts: NOW - 60_000 });
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
    const { core } = await renderTab(now);
    core.recordRequest({ connection: 'max-1', keyName: 'alice' });
    core.recordRequest({ connection: 'max-1', keyName: 'alice' });
    core.recordRequest({ connection: 'glm', keyName: 'ci' });
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
    const { inputsOf } = await renderTab(now);
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
    const { core, inputsOf } = await renderTab(() => Date.now());
    expect(inputsOf('overview.series')).toHaveLength(1);
    act(() => {
      core.recordRequest({ connection: 'max-1', ts: Date.now() });
      core.recordRequest({ connection: 'max-1', ts: Date.now() });
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
});
