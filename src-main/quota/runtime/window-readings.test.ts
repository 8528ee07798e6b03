import { describe, expect, it } from 'vitest';
import type { SignalWindow } from '../../kernel/upstream-signals';
import {
  createWindowReadings,
  SATURATION_TTL_MS,
  saturationWindowsOf,
  UNDATED_READING_TTL_MS,
} from './window-readings';

/** One served response's fills, as its adapter hands them over. */
const fill = (name: SignalWindow, used: number) => [{ name, used, resetAt: null }];

describe('window readings (one memory per provider fact, issue 22)', () => {
  it('QPIPE-6: a report is fresh for 30 s, then ignored', () => {
    const cache = createWindowReadings();
    cache.observeWindows('c1', fill('5h', 0.5), 1_000, null);
    expect(cache.fresh('c1', '5h', 1_000 + SATURATION_TTL_MS)).toBe(0.5);
    expect(cache.fresh('c1', '5h', 1_001 + SATURATION_TTL_MS)).toBeNull();
  });

  it('QPIPE-6: growth is after − before, never negative, and the first report attributes nothing', () => {
    const cache = createWindowReadings();
    const growth = new Map<SignalWindow, number>();
    cache.observeWindows('c1', fill('5h', 0.1), 0, growth);
    expect(growth.size).toBe(0);
    cache.observeWindows('c1', fill('5h', 0.25), 1, growth);
    expect(growth.get('5h')).toBeCloseTo(0.15);
    // The window reset: lower than before is no spending.
    cache.observeWindows('c1', fill('5h', 0.02), 2, growth);
    expect(growth.get('5h')).toBe(0);
  });

  it('QPIPE-6: a pool reads the mean of its accounts’ fresh reports for the dimension’s window', () => {
    const cache = createWindowReadings();
    cache.observeWindows('a', fill('7d', 0.2), 0, null);
    cache.observeWindows('b', fill('7d', 0.6), 0, null);
    expect(cache.poolFraction(['a', 'b', 'c'], { unit: 'percent', window: 'weekly' }, 10)).toBeCloseTo(0.4);
    expect(cache.poolFraction(['a', 'b'], { unit: 'percent', window: '5h' }, 10)).toBeNull();
    expect(saturationWindowsOf({ unit: 'requests', window: 'hourly' })).toEqual(['requests']);
    expect(saturationWindowsOf({ unit: 'tokens', window: '5h' })).toEqual(['5h', 'tokens']);
  });

  it('QPIPE-6: observeWindows stores the fills (not bare resets) and adds the growth only when asked', () => {
    const headers = (used: number) => [
      { name: '5h' as const, used, resetAt: null },
      { name: 'requests' as const, used: 0.4, resetAt: null },
      { name: '7d' as const, used: null, resetAt: 5 },
    ];
    const cache = createWindowReadings();
    const first = new Map();
    cache.observeWindows('c1', headers(0.1), 0, first);
    expect(first.size).toBe(0);
    expect(cache.fresh('c1', '5h', 0)).toBe(0.1);
    expect(cache.fresh('c1', 'requests', 0)).toBeCloseTo(0.4);
    const growth = new Map();
    cache.observeWindows('c1', headers(0.3), 1, growth);
    expect(growth.get('5h')).toBeCloseTo(0.2);
    expect(growth.get('requests')).toBe(0);
    // Without a growth map the readings are stored all the same.
    cache.observeWindows('c1', headers(0.35), 2, null);
    expect(cache.fresh('c1', '5h', 2)).toBe(0.35);
    cache.observeWindows('c2', [], 2, null);
    expect(cache.fresh('c1', '7d', 2)).toBeNull();
    expect(cache.poolFraction(['c2'], { unit: 'percent', window: '5h' }, 2)).toBeNull();
  });

  it('ROUTE-2: the binding window is the most spent one that has not reset yet; an undated one is trusted an hour', () => {
    const readings = createWindowReadings();
    readings.observeWindows(
      'c1',
      [
        { name: '5h', used: 0.3, resetAt: 2_000 },
        { name: '7d', used: 0.8, resetAt: 9_000 },
      ],
      1_000,
      null,
    );
    expect(readings.binding('c1', 1_500)).toEqual({ remaining: expect.closeTo(0.2) as number, resetAt: 9_000 });
    expect(readings.binding('c1', 9_500)).toBeNull();
    expect(readings.binding('other', 1_500)).toBeNull();
    readings.observeWindows('c2', fill('requests', 0.5), 0, null);
    expect(readings.binding('c2', UNDATED_READING_TTL_MS)).toEqual({ remaining: 0.5, resetAt: null });
    expect(readings.binding('c2', UNDATED_READING_TTL_MS + 1)).toBeNull();
  });

  it('ROUTE-2 + QPIPE-6: one reading, two trusts: the quota engine stops at 30 s, the strategies at the reset', () => {
    const readings = createWindowReadings();
    readings.observeWindows('c1', [{ name: '5h', used: 0.6, resetAt: 3_600_000 }], 0, null);
    expect(readings.fresh('c1', '5h', SATURATION_TTL_MS + 1)).toBeNull();
    expect(readings.binding('c1', SATURATION_TTL_MS + 1)).toEqual({ remaining: 0.4, resetAt: 3_600_000 });
    // A later response that only announces the reset dates the known window; its fill keeps its time.
    readings.observeWindows('c1', [{ name: '5h', used: null, resetAt: 7_200_000 }], 10, null);
    expect(readings.binding('c1', 3_600_001)).toEqual({ remaining: 0.4, resetAt: 7_200_000 });
    expect(readings.fresh('c1', '5h', SATURATION_TTL_MS)).toBe(0.6);
    expect(readings.fresh('c1', '5h', SATURATION_TTL_MS + 1)).toBeNull();
  });
});
