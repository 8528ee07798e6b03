import { describe, expect, it } from 'vitest';
import type { BucketPairs, ResolvedPool } from '../quota-ports';
import { dimensionTotals, fairShareDimensionsFor, poolDimensionsOf } from './pool-dimensions';
import { buildPoolUsage } from './pool-usage';

const H = 3_600_000;
const NOW = 1000 * H + H / 2; // half-way through an hourly bucket (5h buckets: 1000 H is one too).

const pool: ResolvedPool = {
  id: 'pool1',
  name: 'team',
  connectionIds: ['c1'],
  dimensions: [
    { unit: 'requests', window: 'hourly', limit: 20 },
    { unit: 'percent', window: '5h', limit: 100 },
  ],
  saturationThreshold: null,
  allocations: [
    { keyId: 'k1', keyName: 'alice', weight: 50, effectiveWeight: 50, policy: 'hard', capValue: null, capUnit: null },
    { keyId: 'k2', keyName: 'bob', weight: 50, effectiveWeight: 50, policy: 'soft', capValue: null, capUnit: null },
  ],
};
const dims = poolDimensionsOf(pool.id, pool.dimensions);

/** Buckets for [alice, bob] × [requests/hourly, percent/5h]: index k * 2 + d. */
function pairsOf(values: Array<[number, number]>): BucketPairs {
  return { prev: Float64Array.from(values.map((v) => v[0])), curr: Float64Array.from(values.map((v) => v[1])) };
}

describe('pool dimensions', () => {
  it('QFAIR-11/QWIN-6: keys, window lengths and limits × account count', () => {
    expect(dims.map((d) => [d.key, d.windowMs, d.limit])).toEqual([
      ['pool1:requests:hourly', H, 20],
      ['pool1:percent:5h', 5 * H, 100],
    ]);
    expect(poolDimensionsOf('p', pool.dimensions, 3).map((d) => d.limit)).toEqual([60, 300]);
    expect(poolDimensionsOf('p', pool.dimensions, 0).map((d) => d.limit)).toEqual([20, 100]);
  });

  it('QWIN-2: the pool total sums every key\u2019s buckets and applies the sliding weight once', () => {
    const pairs = pairsOf([
      [4, 2],
      [0, 0],
      [2, 3],
      [0, 0],
    ]);
    const [requests] = dims;
    if (requests === undefined) throw new Error('no dimension');
    expect(dimensionTotals(requests, 0, 2, 2, pairs, NOW, null)).toEqual({
      consumedTotal: 6 * 0.5 + 5,
      globalUsedPercent: 8 / 20,
      saturationSource: 'counter',
    });
  });

  it('QPIPE-6: a provider report wins; for percent the total is the report × limit', () => {
    const pairs = pairsOf([
      [0, 0],
      [0, 10],
      [0, 0],
      [0, 5],
    ]);
    const [, percent] = dims;
    if (percent === undefined) throw new Error('no dimension');
    expect(dimensionTotals(percent, 1, 2, 2, pairs, NOW, 0.42)).toEqual({
      consumedTotal: 42,
      globalUsedPercent: 0.42,
      saturationSource: 'provider',
    });
  });

  it('QFAIR-4: the decision inputs of one key carry its own sliding value and the pool total', () => {
    const pairs = pairsOf([
      [0, 9],
      [0, 0],
      [0, 1],
      [0, 0],
    ]);
    const inputs = fairShareDimensionsFor(dims, pairs, 2, 0, NOW, [null, null]);
    expect(inputs[0]).toEqual({
      key: 'pool1:requests:hourly',
      unit: 'requests',
      limit: 20,
      consumedTotal: 10,
      globalUsedPercent: 0.5,
      consumed: 9,
    });
    const reused = fairShareDimensionsFor(dims, pairs, 2, 1, NOW, [null, null], inputs);
    expect(reused).toBe(inputs);
    expect(reused[0]?.consumed).toBe(1);
  });
});

describe('pool usage snapshot', () => {
  it('QUI-5/6: per dimension and key: consumed, fair share, remaining, deficit, mode and next decision', () => {
    const pairs = pairsOf([
      [0, 10],
      [0, 0],
      [0, 12],
      [0, 0],
    ]);
    const usage = buildPoolUsage({
      pool,
      dimensions: dims,
      pairs,
      providerSaturation: [null, null],
      history: [[], []],
      saturationThreshold: 0.5,
      now: NOW,
    });
    expect(usage).toHaveLength(2);
    const requests = usage[0];
    expect(requests).toMatchObject({
      dimensionKey: 'pool1:requests:hourly',
      unit: 'requests',
      window: 'hourly',
      windowMs: H,
      limit: 20,
      consumedTotal: 22,
      globalUsedPercent: 1,
      saturationSource: 'counter',
      mode: 'strict',
    });
    expect(requests?.keys).toEqual([
      {
        keyId: 'k1',
        key: 'alice',
        policy: 'hard',
        effectiveWeight: 50,
        consumed: 10,
        fairShare: 10,
        remaining: 0,
        deficit: 0,
        borrowing: false,
        decision: 'global-saturated',
      },
      {
        keyId: 'k2',
        key: 'bob',
        policy: 'soft',
        effectiveWeight: 50,
        consumed: 12,
        fairShare: 10,
        remaining: -2,
        deficit: 2,
        borrowing: false,
        decision: 'global-saturated',
      },
    ]);
  });

  it('QFAIR-8/QUI-6: in generous mode a key over its share is borrowing; a hard key at its share in strict is held', () => {
    const generous = buildPoolUsage({
      pool,
      dimensions: dims,
      pairs: pairsOf([
        [0, 7],
        [0, 0],
        [0, 0],
        [0, 0],
      ]),
      providerSaturation: [null, null],
      history: [[], []],
      saturationThreshold: 0.5,
      now: NOW,
    });
    expect(generous[0]?.mode).toBe('generous');
    expect(generous[0]?.keys[0]).toMatchObject({ consumed: 7, fairShare: 10, borrowing: false, decision: 'allow' });

    const borrowing = buildPoolUsage({
      pool,
      dimensions: dims,
      pairs: pairsOf([
        [0, 12],
        [0, 0],
        [0, 1],
        [0, 0],
      ]),
      providerSaturation: [null, null],
      history: [[], []],
      saturationThreshold: 0.9,
      now: NOW,
    });
    expect(borrowing[0]?.mode).toBe('generous');
    expect(borrowing[0]?.keys[0]).toMatchObject({ consumed: 12, fairShare: 10, borrowing: true, decision: 'allow' });
    expect(borrowing[0]?.keys[1]).toMatchObject({ consumed: 1, borrowing: false, decision: 'allow' });

    const strict = buildPoolUsage({
      pool,
      dimensions: dims,
      pairs: pairsOf([
        [0, 10],
        [0, 0],
        [0, 2],
        [0, 0],
      ]),
      providerSaturation: [null, null],
      history: [[], []],
      saturationThreshold: 0.5,
      now: NOW,
    });
    expect(strict[0]?.mode).toBe('strict');
    expect(strict[0]?.keys.map((k) => k.decision)).toEqual(['fair-share', 'allow']);
  });

  it('QUI-6: a soft key over its share in generous mode is borrowing and would be penalised', () => {
    const usage = buildPoolUsage({
      pool,
      dimensions: dims,
      pairs: pairsOf([
        [0, 0],
        [0, 0],
        [0, 11],
        [0, 0],
      ]),
      providerSaturation: [null, null],
      history: [[], []],
      saturationThreshold: 0.9,
      now: NOW,
    });
    expect(usage[0]?.keys[1]).toMatchObject({ consumed: 11, deficit: 1, borrowing: true, decision: 'penalize' });
  });

  it('QUI-7/QPIPE-8: burn rate and history come from the samples; percent follows the provider report', () => {
    const samples = [
      { at: NOW - 2000, value: 0 },
      { at: NOW - 1000, value: 1 },
      { at: NOW, value: 2 },
    ];
    const usage = buildPoolUsage({
      pool,
      dimensions: dims,
      pairs: pairsOf([
        [0, 1],
        [0, 0],
        [0, 1],
        [0, 0],
      ]),
      providerSaturation: [null, 0.8],
      history: [samples, []],
      saturationThreshold: 0.5,
      now: NOW,
    });
    expect(usage[0]?.burnRate.perSecond).toBeCloseTo(1, 9);
    expect(usage[0]?.burnRate.timeToExhaustionMs).toBeCloseTo(18_000, 3);
    expect(usage[0]?.history.map((h) => h.consumedTotal)).toEqual([0, 1, 2]);
    expect(usage[1]).toMatchObject({
      consumedTotal: 80,
      globalUsedPercent: 0.8,
      saturationSource: 'provider',
      mode: 'strict',
    });
    expect(usage[1]?.burnRate).toEqual({ perSecond: 0, timeToExhaustionMs: null, samples: 0 });
  });
});
