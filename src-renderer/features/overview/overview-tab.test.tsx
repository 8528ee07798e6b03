// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '../../../src-shared/contract/errors';
import type { PoolUsageSummary } from '../../../src-shared/domain/overview';
import { fakeConnection } from '../../testing/fake-fixtures';
import { renderWithFake } from '../../testing/render-with-fake';
import { claudeStatus, usage } from '../claude/claude-fixtures';
import { OverviewTab } from './overview-tab';

const NOW = 1_700_000_000_000;
const now = (): number => NOW;
const HOUR_END = (Math.floor(NOW / 3_600_000) + 1) * 3_600_000;

afterEach(cleanup);

describe('Overview tab panels (issue 13 §4)', () => {
  it('shows each Claude subscription with its usage windows', async () => {
    const max = fakeConnection('max-1', { kind: 'claude-oauth' });
    // The bars count down on the wall clock: put the resets ahead of it.
    const ahead = Date.now() - NOW;
    await renderWithFake(<OverviewTab />, {
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
    // What `overview.usage` answers per pool (the core computes it from the counters, see usage-summary).
    const pool = (name: string, used: number, mode: 'strict' | 'generous' = 'generous'): PoolUsageSummary => ({
      name,
      connections: ['max-1'],
      saturationThreshold: 0.8,
      dimensions: [
        { unit: 'requests', window: 'hourly', used, limit: 20, usedPercent: used * 5, resetsAt: HOUR_END, mode },
      ],
    });
    const { unmount } = await renderWithFake(<OverviewTab />, {
      now,
      seed: {
        overviewUsage: { connections: [], pools: [pool('quiet', 0), pool('team', 18, 'strict'), pool('ci', 16)] },
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
    await renderWithFake(<OverviewTab />, {
      now,
      seed: { overviewUsage: { connections: [], pools: [pool('quiet', 0)] } },
    });
    expect(screen.getByRole('region', { name: 'Quota pools near saturation' }).textContent).toContain(
      'No pool is near its limit (1 pool, the fullest at 0 %).',
    );
  });

  it('says what failed when the core refuses the series, and tries again on request', async () => {
    await renderWithFake(<OverviewTab />, {
      now,
      wrap: (inner) => ({
        ...inner,
        call: (method, input) =>
          method === 'overview.series'
            ? Promise.resolve(fail('internal_error', 'storage unavailable'))
            : inner.call(method, input),
      }),
    });
    expect(screen.getByRole('alert').textContent).toContain('storage unavailable');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
