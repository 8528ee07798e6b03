// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatHourMinute } from './claude-format';
import { ACTIVE_LANE, T0, usage } from './claude-fixtures';
import { LaneBadge } from './lane-badge';
import { UsageBars } from './usage-bars';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const meter = (name: string) => screen.getByRole('meter', { name });
const timer = (name: string) => screen.getByRole('timer', { name });

describe('usage bars', () => {
  it('PROD-5 show the 5-hour and weekly usage as percentages, each with its reset countdown', () => {
    render(<UsageBars usage={usage(0.72, 5_025_000, 0.4, (3 * 24 + 4) * 3_600_000)} />);
    expect(meter('5-hour usage').getAttribute('aria-valuenow')).toBe('72');
    expect(meter('Weekly usage').getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('72%')).toBeTruthy();
    expect(screen.getByText('40%')).toBeTruthy();
    expect(timer('5-hour resets in').textContent).toBe('1:23:45');
    expect(timer('Weekly resets in').textContent).toBe('3d 4h');
  });

  it('PROD-5 the reset countdown ticks each second, and a window past its reset drops its stale figure', () => {
    render(<UsageBars usage={usage(0.95, 3_000, 0.4)} />);
    expect(timer('5-hour resets in').textContent).toBe('00:03');
    expect(meter('5-hour usage').querySelector('.usage-fill')?.className).toContain('err');
    act(() => void vi.advanceTimersByTime(1_000));
    expect(timer('5-hour resets in').textContent).toBe('00:02');
    act(() => void vi.advanceTimersByTime(2_000));
    expect(screen.queryByRole('meter', { name: '5-hour usage' })).toBeNull();
    expect(screen.getByText(/reset at .*, no usage seen since/)).toBeTruthy();
    expect(meter('Weekly usage')).toBeTruthy();
  });

  it('PROD-5 counts down on the core’s clock when the local clock is off', () => {
    render(<UsageBars usage={usage(0.1, 600_000, 0.1)} skewMs={60_000} />);
    expect(timer('5-hour resets in').textContent).toBe('09:00');
  });

  it('PROD-5 a connection that answered nothing yet says so', () => {
    render(<UsageBars usage={null} />);
    expect(screen.getByText('No usage seen yet')).toBeTruthy();
  });
});

describe('lane badge', () => {
  it('LOWP-3 idle before any wall', () => {
    render(<LaneBadge lane={{ kind: 'idle' }} />);
    expect(screen.getByText('Low priority: idle')).toBeTruthy();
  });

  it('LOWP-5 active until the announced reset', () => {
    render(<LaneBadge lane={{ kind: 'active', ...ACTIVE_LANE }} />);
    expect(screen.getByText(`Low priority: active until ${formatHourMinute(T0 + 3_600_000)}`)).toBeTruthy();
  });

  it('LOWP-7 LOWP-8 waiting for a slot shows the attempt and a ticking next try', () => {
    render(
      <LaneBadge
        lane={{ kind: 'waiting', ...ACTIVE_LANE, attempts: 3, waitingSinceMs: T0 - 40_000, nextTryAtMs: T0 + 12_000 }}
      />,
    );
    expect(screen.getByText('Low priority: waiting for a slot (attempt 3, next try in 00:12)')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(1_000));
    expect(screen.getByText('Low priority: waiting for a slot (attempt 3, next try in 00:11)')).toBeTruthy();
  });

  it('LOWP-8 LOWP-10 ended gives the reason as a sentence, and what holds re-entry off', () => {
    const { rerender } = render(
      <LaneBadge lane={{ kind: 'ended', reason: 'max_wait', atMs: T0, coolingOffUntilMs: T0 + 600_000 }} />,
    );
    expect(screen.getByText('Low priority: ended: no slot freed up within the allowed wait')).toBeTruthy();
    expect(screen.getByText(`Not re-entered before ${formatHourMinute(T0 + 600_000)}`)).toBeTruthy();
    rerender(<LaneBadge lane={{ kind: 'ended', reason: 'weekly', atMs: T0 }} />);
    expect(screen.getByText('Low priority: ended: the weekly limit was reached')).toBeTruthy();
  });
});
