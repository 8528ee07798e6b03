import { describe, expect, it } from 'vitest';
import { readSaturation } from './saturation-headers';
import { createSaturationCache, SATURATION_TTL_MS, saturationWindowsOf } from './saturation-cache';

describe('provider saturation headers', () => {
  it('QPIPE-6: reads the Anthropic unified 5h/7d utilisation as fractions', () => {
    expect(
      readSaturation({
        'anthropic-ratelimit-unified-5h-utilization': '0.42',
        'anthropic-ratelimit-unified-7d-utilization': '0.3',
      }),
    ).toEqual([
      { window: '5h', fraction: 0.42 },
      { window: '7d', fraction: 0.3 },
    ]);
  });

  it('QPIPE-6: reads Codex percentages by their announced window and OpenAI limit/remaining pairs', () => {
    expect(
      readSaturation({
        'x-codex-primary-used-percent': '19',
        'x-codex-primary-window-minutes': '300',
        'x-codex-secondary-used-percent': '36',
        'x-codex-secondary-window-minutes': '10080',
        'x-ratelimit-limit-requests': '100',
        'x-ratelimit-remaining-requests': '75',
        'x-ratelimit-limit-tokens': '1000',
        'x-ratelimit-remaining-tokens': '900',
      }),
    ).toEqual([
      { window: '5h', fraction: 0.19 },
      { window: '7d', fraction: 0.36 },
      { window: 'requests', fraction: 0.25 },
      { window: 'tokens', fraction: 0.1 },
    ]);
  });

  it('QPIPE-6: ignores junk and clamps to 0..1; no headers, no readings', () => {
    expect(readSaturation({})).toEqual([]);
    expect(
      readSaturation({
        'anthropic-ratelimit-unified-5h-utilization': 'abc',
        'anthropic-ratelimit-unified-7d-utilization': '1.7',
        'x-ratelimit-limit-requests': '0',
        'x-ratelimit-remaining-requests': '0',
      }),
    ).toEqual([{ window: '7d', fraction: 1 }]);
  });
});

describe('saturation cache', () => {
  it('QPIPE-6: a report is fresh for 30 s, then ignored', () => {
    const cache = createSaturationCache();
    cache.observe('c1', [{ window: '5h', fraction: 0.5 }], 1_000);
    expect(cache.fresh('c1', '5h', 1_000 + SATURATION_TTL_MS)).toBe(0.5);
    expect(cache.fresh('c1', '5h', 1_001 + SATURATION_TTL_MS)).toBeNull();
  });

  it('QPIPE-6: growth is after − before, never negative, and the first report attributes nothing', () => {
    const cache = createSaturationCache();
    expect(cache.observe('c1', [{ window: '5h', fraction: 0.1 }], 0).size).toBe(0);
    expect(cache.observe('c1', [{ window: '5h', fraction: 0.25 }], 1).get('5h')).toBeCloseTo(0.15);
    // The window reset: lower than before is no spending.
    expect(cache.observe('c1', [{ window: '5h', fraction: 0.02 }], 2).get('5h')).toBe(0);
  });

  it('QPIPE-6: a pool reads the mean of its accounts’ fresh reports for the dimension’s window', () => {
    const cache = createSaturationCache();
    cache.observe('a', [{ window: '7d', fraction: 0.2 }], 0);
    cache.observe('b', [{ window: '7d', fraction: 0.6 }], 0);
    expect(cache.poolFraction(['a', 'b', 'c'], { unit: 'percent', window: 'weekly' }, 10)).toBeCloseTo(0.4);
    expect(cache.poolFraction(['a', 'b'], { unit: 'percent', window: '5h' }, 10)).toBeNull();
    expect(saturationWindowsOf({ unit: 'requests', window: 'hourly' })).toEqual(['requests']);
    expect(saturationWindowsOf({ unit: 'tokens', window: '5h' })).toEqual(['5h', 'tokens']);
  });

  it('QPIPE-6: observeHeaders stores what readSaturation reads and adds the growth only when asked', () => {
    const headers = (used: string) => ({
      'anthropic-ratelimit-unified-5h-utilization': used,
      'anthropic-ratelimit-requests-limit': '100',
      'anthropic-ratelimit-requests-remaining': '60',
    });
    const cache = createSaturationCache();
    const first = new Map();
    cache.observeHeaders('c1', headers('0.1'), 0, first);
    expect(first.size).toBe(0);
    expect(cache.fresh('c1', '5h', 0)).toBe(0.1);
    expect(cache.fresh('c1', 'requests', 0)).toBeCloseTo(0.4);
    const growth = new Map();
    cache.observeHeaders('c1', headers('0.3'), 1, growth);
    expect(growth.get('5h')).toBeCloseTo(0.2);
    expect(growth.get('requests')).toBe(0);
    // Without a growth map the readings are stored all the same.
    cache.observeHeaders('c1', headers('0.35'), 2, null);
    expect(cache.fresh('c1', '5h', 2)).toBe(0.35);
    cache.observeHeaders('c2', {}, 2, null);
    expect(cache.poolFraction(['c2'], { unit: 'percent', window: '5h' }, 2)).toBeNull();
  });
});
