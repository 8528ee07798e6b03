// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AllocationTable } from './allocation-table';
import { BurnRateChart } from './burn-rate-chart';
import { DimensionBar } from './dimension-bar';
import { dimensionUsage, keyUsage, T0 } from './quota-fixtures';

afterEach(cleanup);

const busy = dimensionUsage({
  consumedTotal: 15,
  globalUsedPercent: 0.75,
  mode: 'strict',
  keys: [
    keyUsage('alice', { consumed: 12, fairShare: 10, remaining: -2, deficit: 2, decision: 'fair-share' }),
    keyUsage('bob', { consumed: 3, fairShare: 10, remaining: 7, deficit: -7, policy: 'soft', decision: 'penalize' }),
  ],
});

describe('dimension bar', () => {
  it("QUI-5: stacks each key's consumption against the limit, with the fair-share mark, mode and global use", () => {
    const { container } = render(<DimensionBar dimension={busy} threshold={0.5} />);
    const bar = screen.getByRole('img', { name: /20 requests \/ hour: 15 of 20 used \(75 %\), strict/ });
    const widths = [...bar.querySelectorAll<HTMLElement>('.quota-bar-segment')].map((s) => [
      s.dataset.key,
      s.style.width,
    ]);
    expect(widths).toEqual([
      ['alice', '60%'],
      ['bob', '15%'],
    ]);
    // One mark between the two shares (at 10 of 20) and the saturation threshold at 50 %.
    expect([...bar.querySelectorAll<HTMLElement>('.quota-bar-mark')].map((m) => m.style.left)).toEqual(['50%']);
    expect(bar.querySelector<HTMLElement>('.quota-bar-threshold')?.style.left).toBe('50%');
    expect(screen.getByText('strict').className).toContain('warn');
    expect(container.textContent).toContain('counted by Leeway');
    expect(screen.getByText('alice: 12 of 10 share')).toBeTruthy();
  });

  it('QUI-5: says when the global use came from the provider, and copes with an unknown limit', () => {
    render(
      <DimensionBar
        dimension={dimensionUsage({
          unit: 'tokens',
          window: '5h',
          limit: 0,
          consumedTotal: 5000,
          globalUsedPercent: 0.85,
          saturationSource: 'provider',
          keys: [keyUsage('alice', { consumed: 5000, fairShare: 0 })],
        })}
        threshold={0.5}
      />,
    );
    const bar = screen.getByRole('img', { name: /5,000 of an unknown limit used \(85 %\)/ });
    expect(bar.querySelector<HTMLElement>('.quota-bar-segment')?.style.width).toBe('100%');
    expect(bar.querySelector('.quota-bar-threshold')).toBeNull();
    expect(screen.getByText(/reported by the provider/)).toBeTruthy();
  });
});

describe('allocation table', () => {
  it('QUI-6: per key the policy, weight, consumption, fair share, deficit or surplus, borrowing and the next decision', () => {
    const generous = dimensionUsage({
      keys: [
        keyUsage('alice', { consumed: 12, remaining: -2, deficit: 2, borrowing: true }),
        keyUsage('bob', { consumed: 0, effectiveWeight: 50, policy: 'burst' }),
      ],
    });
    render(
      <AllocationTable
        dimension={generous}
        weights={
          new Map([
            ['alice', 50],
            ['bob', 0],
          ])
        }
      />,
    );
    const table = screen.getByRole('table', { name: 'Allocations — 20 requests / hour' });
    const cells = (key: string): string[] => {
      const row = within(table).getByRole('rowheader', { name: key }).closest('tr');
      return [...(row?.querySelectorAll('th, td') ?? [])].map((c) => c.textContent ?? '');
    };
    expect(cells('alice')).toEqual(['alice', 'hard', '50 %', '12', '10', '2 over', 'borrowing', 'allowed']);
    expect(cells('bob')).toEqual(['bob', 'burst', '0 → 50 %', '0', '10', '10 left', 'no', 'allowed']);
  });

  it('QUI-6: the decision the next request would meet: deprioritised, or blocked with its reason', () => {
    render(<AllocationTable dimension={busy} weights={new Map()} />);
    expect(screen.getByText('blocked: over its fair share').className).toContain('err');
    expect(screen.getByText('allowed, deprioritised').className).toContain('warn');
  });
});

describe('burn-rate chart', () => {
  it('QUI-7 QPIPE-8: with fewer than two samples it shows "No data" and loads no chart', () => {
    const one = dimensionUsage({
      burnRate: { perSecond: 0, timeToExhaustionMs: null, samples: 1 },
      history: [{ at: T0, consumedTotal: 1, perSecond: 0 }],
    });
    const { container } = render(<BurnRateChart dimension={one} />);
    expect(screen.getByRole('note', { name: 'Burn rate of requests per second' }).textContent).toMatch(/^No data/);
    expect(container.querySelector('figure')).toBeNull();
  });

  it('QUI-7: with samples it states the rate and when the pool runs out, and draws the lazily loaded chart', async () => {
    const two = dimensionUsage({
      burnRate: { perSecond: 0.005, timeToExhaustionMs: 40 * 60_000, samples: 2 },
      history: [
        { at: T0, consumedTotal: 2, perSecond: 0.004 },
        { at: T0 + 60_000, consumedTotal: 8, perSecond: 0.005 },
      ],
    });
    render(<BurnRateChart dimension={two} />);
    const figure = screen.getByRole('figure', { name: 'Burn rate of requests per second' });
    expect(within(figure).getByText('0.005 requests/s · runs out in about 40 min')).toBeTruthy();
    expect(screen.queryByText(/^No data/)).toBeNull();
    // The chart module arrives after a dynamic import; whether this DOM can draw, it renders something in place.
    await screen.findByText(
      (_, el) => el?.classList.contains('quota-uplot') === true || /cannot be drawn/.test(el?.textContent ?? ''),
    );
  });
});
