import { describe, expect, it } from 'vitest';
import { formatCount, formatMs, formatRate, formatResetsIn } from './format-overview';

describe('overview formats', () => {
  it('counts: whole numbers, then k and M with one decimal while short', () => {
    expect([formatCount(950), formatCount(1_234), formatCount(12_345), formatCount(4_100_000)]).toEqual([
      '950',
      '1.2k',
      '12k',
      '4.1M',
    ]);
  });

  it('rates and latencies, with a dash when unknown', () => {
    expect([formatRate(null), formatRate(0), formatRate(0.005), formatRate(0.25)]).toEqual([
      '—',
      '0 %',
      '0.5 %',
      '25 %',
    ]);
    expect([formatMs(null), formatMs(850), formatMs(2_400), formatMs(12_000)]).toEqual([
      '—',
      '850 ms',
      '2.4 s',
      '12 s',
    ]);
  });

  it('time to a reset in minutes, hours or days', () => {
    const now = 1_000_000;
    expect(formatResetsIn(now - 1, now)).toBe('now');
    expect(formatResetsIn(now + 42 * 60_000, now)).toBe('in 42 min');
    expect(formatResetsIn(now + 185 * 60_000, now)).toBe('in 3 h 5 min');
    expect(formatResetsIn(now + 52 * 3_600_000, now)).toBe('in 2 d 4 h');
  });
});
