import { describe, expect, it } from 'vitest';
import { bucketIndexOf, dimensionKeyOf, msUntilBelow, slidingValue } from './sliding-window';

const H = 3_600_000;

/** The sliding value at `t` after buckets (prev, curr) were read at `now`, nothing consumed since. */
function valueAt(prev: number, curr: number, now: number, t: number): number {
  const shift = bucketIndexOf(t, H) - bucketIndexOf(now, H);
  if (shift === 0) return slidingValue(prev, curr, t, H);
  if (shift === 1) return slidingValue(curr, 0, t, H);
  return 0;
}

describe('two-bucket sliding counter', () => {
  it('QWIN-1: the bucket index is floor(now / windowMs), changing exactly at the boundary', () => {
    expect(bucketIndexOf(0, H)).toBe(0);
    expect(bucketIndexOf(H - 1, H)).toBe(0);
    expect(bucketIndexOf(H, H)).toBe(1);
    expect(bucketIndexOf(5 * H + 1, H)).toBe(5);
  });

  it('QWIN-2: prev weighs fully at the bucket start, half in the middle, almost nothing at the end', () => {
    expect(slidingValue(1000, 10, 7 * H, H)).toBe(1010);
    expect(slidingValue(1000, 10, 7 * H + H / 2, H)).toBe(510);
    expect(slidingValue(1000, 10, 8 * H - 1, H)).toBeCloseTo(10 + 1000 / H, 9);
    expect(slidingValue(1000, 10, 8 * H, H)).toBe(1010);
  });

  it('QWIN-2: prev decays by the elapsed fraction (a quarter in → 75 %)', () => {
    expect(slidingValue(400, 0, 3 * H + H / 4, H)).toBe(300);
  });

  it('QWIN-1: the dimension key is <poolId>:<unit>:<window>', () => {
    expect(dimensionKeyOf('p1', 'requests', 'hourly')).toBe('p1:requests:hourly');
  });
});

describe('msUntilBelow (Retry-After)', () => {
  it('QWIN-2: 0 when the value is already below the threshold', () => {
    expect(msUntilBelow(0, 5, 10 * H, H, 10)).toBe(0);
  });

  it('QWIN-2: null for a threshold of 0 or less (never strictly below)', () => {
    expect(msUntilBelow(10, 10, 10 * H, H, 0)).toBeNull();
    expect(msUntilBelow(10, 10, 10 * H, H, -1)).toBeNull();
  });

  it('QWIN-2: in the current bucket, prev\u2019s falling weight brings it below', () => {
    // At the bucket start: 10 prev + 5 curr = 15; below 10 once prev's weight < 0.5 (half a window).
    const ms = msUntilBelow(10, 5, 10 * H, H, 10);
    expect(ms).toBe(H / 2 + 1);
  });

  it('QWIN-2: when curr alone is over, it waits for the next bucket and curr\u2019s decay there', () => {
    // 0 prev, 20 curr at mid-bucket; next bucket starts in H/2, then 20 × (1 − e/H) < 10 after H/2 more.
    const ms = msUntilBelow(0, 20, 10 * H + H / 2, H, 10);
    expect(ms).toBe(H + 1);
  });

  it('QWIN-2: the answer is exact to the millisecond against the counter formula', () => {
    const cases: Array<[number, number, number, number]> = [
      [7, 3, 10 * H + 123_457, 4],
      [1000, 10, 10 * H + 1, 500],
      [3, 9.5, 10 * H + H - 2, 9],
      [0.3, 0.3, 10 * H + 77, 0.1],
      [12, 0, 10 * H + 999_999, 1],
    ];
    for (const [prev, curr, now, thr] of cases) {
      const ms = msUntilBelow(prev, curr, now, H, thr);
      expect(ms).not.toBeNull();
      const at = now + (ms ?? 0);
      expect(valueAt(prev, curr, now, at)).toBeLessThan(thr);
      if ((ms ?? 0) > 0) expect(valueAt(prev, curr, now, at - 1)).toBeGreaterThanOrEqual(thr);
    }
  });
});
