// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { CONCEPT_DISMISSED_KEY } from './quota-concept-card';
import { dimensionUsage, fakeKey, fakePool, keyUsage, poolUsage } from './quota-fixtures';
import { QuotaTab } from './quota-tab';
import { POOLS_REFRESH_MS, USAGE_REFRESH_MS } from './quota-data';

beforeEach(() => window.localStorage.clear());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const seed = { connections: [fakeConnection('max-1')], keys: [fakeKey('alice'), fakeKey('bob')] };

describe('quota tab', () => {
  it('QUI-1 QUI-2: explains pools in a card that stays dismissed, and offers to create the first pool', async () => {
    const first = await renderWithFake(<QuotaTab />, { seed });
    expect(screen.getByRole('heading', { name: 'Quota' })).toBeTruthy();
    expect(screen.getByText(/splits one upstream account’s windowed quota/)).toBeTruthy();
    expect(screen.getByText('No pools yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create the first pool' }));
    expect(screen.getByRole('dialog', { name: 'Create pool' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the introduction' }));
    expect(screen.queryByText(/splits one upstream account’s windowed quota/)).toBeNull();
    expect(window.localStorage.getItem(CONCEPT_DISMISSED_KEY)).toBe('1');
    first.unmount();
    await renderWithFake(<QuotaTab />, { seed });
    expect(screen.queryByText(/splits one upstream account’s windowed quota/)).toBeNull();
  });

  it('QUI-4: a pool card names the pool, its connections, its allocation count and where its dimensions come from', async () => {
    const planPool = fakePool('plan-pool', {
      dimensions: [],
      effectiveDimensions: [{ unit: 'tokens', window: '5h', limit: 0 }],
      dimensionsSource: 'catalog',
    });
    await renderWithFake(<QuotaTab />, { seed: { ...seed, quotaPools: [fakePool('team'), planPool] } });
    const facts = (name: string): HTMLElement => {
      const dl = screen.getByRole('article', { name }).querySelector('dl');
      if (!dl) throw new Error('no facts');
      return dl;
    };
    const team = facts('team');
    expect(within(team).getByText('max-1')).toBeTruthy();
    expect(within(team).getByText('2 allocations')).toBeTruthy();
    expect(within(team).getByText('20 requests / hour')).toBeTruthy();
    expect(within(team).getByText('(set on the pool)')).toBeTruthy();
    const plan = facts('plan-pool');
    expect(within(plan).getByText('tokens / 5 hours (limit unknown)')).toBeTruthy();
    expect(within(plan).getByText("(the connection's catalog plan)")).toBeTruthy();
  });

  it('QUI-10: usage is read only for an open card, then every few seconds while it stays open', async () => {
    vi.useFakeTimers();
    const team = fakePool('team');
    const other = fakePool('other');
    const { inputsOf, fake } = await renderWithFake(<QuotaTab />, {
      seed: {
        ...seed,
        quotaPools: [team, other],
        quotaUsage: { [team.id]: poolUsage(team, [dimensionUsage({ consumedTotal: 4, globalUsedPercent: 0.2 })]) },
      },
    });
    expect(inputsOf('quota.poolUsage')).toEqual([{ id: team.id }]);
    const table = screen.getByRole('table', { name: /Allocations — 20 requests \/ hour/ });
    expect(within(table).getAllByText('0')).toHaveLength(2);

    fake.state.quotaUsage[team.id] = poolUsage(team, [
      dimensionUsage({
        consumedTotal: 7,
        globalUsedPercent: 0.35,
        keys: [keyUsage('alice', { consumed: 7, remaining: 3 }), keyUsage('bob')],
      }),
    ]);
    act(() => void vi.advanceTimersByTime(USAGE_REFRESH_MS));
    await flush();
    expect(inputsOf('quota.poolUsage')).toEqual([{ id: team.id }, { id: team.id }]);
    const row = within(screen.getByRole('table', { name: /Allocations/ })).getByRole('rowheader', { name: 'alice' });
    expect(row.closest('tr')?.textContent).toContain('3 left');

    fireEvent.click(within(screen.getByRole('article', { name: 'other' })).getByRole('button', { name: 'Show usage' }));
    await flush();
    expect(inputsOf('quota.poolUsage').at(-1)).toEqual({ id: other.id });
    fireEvent.click(within(screen.getByRole('article', { name: 'team' })).getByRole('button', { name: 'Hide usage' }));
    const before = inputsOf('quota.poolUsage').filter((i) => JSON.stringify(i) === JSON.stringify({ id: team.id }));
    act(() => void vi.advanceTimersByTime(USAGE_REFRESH_MS * 3));
    await flush();
    const after = inputsOf('quota.poolUsage').filter((i) => JSON.stringify(i) === JSON.stringify({ id: team.id }));
    expect(after).toHaveLength(before.length);
  });

  it('QUI-9: the pool list is re-read every 30 s while the tab is shown, and not after it is left', async () => {
    vi.useFakeTimers();
    const { inputsOf, fake, unmount } = await renderWithFake(<QuotaTab />, { seed });
    expect(inputsOf('quota.listPools')).toHaveLength(1);
    act(() => void vi.advanceTimersByTime(POOLS_REFRESH_MS - 1));
    await flush();
    expect(inputsOf('quota.listPools')).toHaveLength(1);
    // A pool made elsewhere (the config file, another window) shows up on the next poll.
    fake.state.quotaPools = [fakePool('from-config')];
    act(() => void vi.advanceTimersByTime(1));
    await flush();
    expect(inputsOf('quota.listPools')).toHaveLength(2);
    expect(screen.getByRole('article', { name: 'from-config' })).toBeTruthy();
    unmount();
    act(() => void vi.advanceTimersByTime(POOLS_REFRESH_MS * 3));
    await flush();
    expect(inputsOf('quota.listPools')).toHaveLength(2);
  });

  it('QUI-4: deleting a pool asks first, then removes it', async () => {
    const { inputsOf } = await renderWithFake(<QuotaTab />, { seed: { ...seed, quotaPools: [fakePool('team')] } });
    const card = screen.getByRole('article', { name: 'team' });
    fireEvent.click(within(card).getByRole('button', { name: 'Delete pool' }));
    expect(inputsOf('quota.removePool')).toEqual([]);
    fireEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    await flush();
    expect(inputsOf('quota.removePool')).toEqual([{ name: 'team' }]);
    expect(screen.queryByRole('article', { name: 'team' })).toBeNull();
    expect(screen.getByText('No pools yet')).toBeTruthy();
  });
});
