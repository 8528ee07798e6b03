import { describe, expect, it } from 'vitest';
import { burnRateSeries, computeBurnRate } from './burn-rate';
import { SampleRing } from './sample-ring';

describe('burn rate', () => {
  it('QPIPE-8: fewer than 2 samples → rate 0 and no time to exhaustion', () => {
    expect(computeBurnRate([], 100)).toEqual({ perSecond: 0, timeToExhaustionMs: null, samples: 0 });
    expect(computeBurnRate([{ at: 0, value: 5 }], 100)).toEqual({ perSecond: 0, timeToExhaustionMs: null, samples: 1 });
  });

  it('QPIPE-8: a steady 2 units/s gives rate 2 and remaining / rate to exhaustion', () => {
    const samples = [0, 1, 2, 3].map((i) => ({ at: i * 1000, value: i * 2 }));
    const r = computeBurnRate(samples, 106);
    expect(r.perSecond).toBeCloseTo(2, 9);
    expect(r.timeToExhaustionMs).toBeCloseTo(50_000, 3);
    expect(r.samples).toBe(4);
  });

  it('QUI-7: the EMA moves toward a new rate by alpha each interval', () => {
    const series = burnRateSeries(
      [
        { at: 0, value: 0 },
        { at: 1000, value: 10 },
        { at: 2000, value: 10 },
      ],
      0.5,
    );
    expect(series).toEqual([0, 10, 5]);
  });

  it('QPIPE-8: a falling total (the window sliding) counts as 0, and no rate means no exhaustion estimate', () => {
    const r = computeBurnRate(
      [
        { at: 0, value: 50 },
        { at: 1000, value: 40 },
      ],
      100,
    );
    expect(r).toEqual({ perSecond: 0, timeToExhaustionMs: null, samples: 2 });
  });

  it('QPIPE-8: an unknown limit (0) gives no time to exhaustion; an exhausted one gives 0', () => {
    const up = [
      { at: 0, value: 0 },
      { at: 1000, value: 10 },
    ];
    expect(computeBurnRate(up, 0).timeToExhaustionMs).toBeNull();
    expect(computeBurnRate(up, 5).timeToExhaustionMs).toBe(0);
  });

  it('QUI-7: samples at the same time as the previous one are skipped', () => {
    const series = burnRateSeries([
      { at: 0, value: 0 },
      { at: 0, value: 99 },
      { at: 1000, value: 5 },
    ]);
    expect(series[2]).toBe(5);
  });
});

describe('sample ring', () => {
  it('QUI-7: keeps the newest `capacity` samples, oldest first', () => {
    const ring = new SampleRing(3);
    for (let i = 1; i <= 5; i++) ring.push(i * 10, i);
    expect(ring.size).toBe(3);
    expect(ring.toArray()).toEqual([
      { at: 30, value: 3 },
      { at: 40, value: 4 },
      { at: 50, value: 5 },
    ]);
  });

  it('QUI-7: a sample at the newest time replaces it; an older one is dropped', () => {
    const ring = new SampleRing(4);
    ring.push(10, 1);
    ring.push(20, 2);
    ring.push(20, 3);
    ring.push(15, 9);
    expect(ring.toArray()).toEqual([
      { at: 10, value: 1 },
      { at: 20, value: 3 },
    ]);
    expect(ring.lastAt()).toBe(20);
    ring.clear();
    expect(ring.toArray()).toEqual([]);
    expect(ring.lastAt()).toBeNull();
  });

  it('QUI-7: rejects a capacity that is not a positive integer', () => {
    expect(() => new SampleRing(0)).toThrow(RangeError);
  });
});
