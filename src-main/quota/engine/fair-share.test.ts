import { describe, expect, it } from 'vitest';
import { decideFairShare, type FairShareAllocation, type FairShareDimension } from './fair-share';
import { effectiveWeights } from './weights';

const THRESHOLD = 0.5;
const alloc = (over: Partial<FairShareAllocation> = {}): FairShareAllocation => ({
  effectiveWeight: 50,
  policy: 'hard',
  capValue: null,
  capUnit: null,
  ...over,
});
const dim = (over: Partial<FairShareDimension> = {}): FairShareDimension => ({
  key: 'p:tokens:5h',
  unit: 'tokens',
  limit: 1000,
  consumedTotal: 0,
  globalUsedPercent: 0,
  consumed: 0,
  ...over,
});
const decide = (d: FairShareDimension[], a: FairShareAllocation) =>
  decideFairShare({ dimensions: d, allocation: a, saturationThreshold: THRESHOLD });

describe('fair share: the reference table (limit 1 000, weight 50 → share 500, threshold 0.5)', () => {
  it('QFAIR-3/8: generous, consumed 200 → allow', () => {
    const r = decide([dim({ consumed: 200, consumedTotal: 200, globalUsedPercent: 0.2 })], alloc());
    expect(r).toMatchObject({ kind: 'allow', penalized: false });
    expect(r.evaluations[0]).toMatchObject({ mode: 'generous', fairShare: 500, remaining: 300 });
  });

  it('QFAIR-7: generous, consumed 600, burst → allow', () => {
    expect(
      decide([dim({ consumed: 600, consumedTotal: 600, globalUsedPercent: 0.3 })], alloc({ policy: 'burst' })).kind,
    ).toBe('allow');
  });

  it('QFAIR-8: generous, consumed 600, hard, total 600 → allow (borrowing up to limit − others)', () => {
    const r = decide([dim({ consumed: 600, consumedTotal: 600, globalUsedPercent: 0.3 })], alloc());
    expect(r.kind).toBe('allow');
    expect(r.evaluations[0]?.maxAllowed).toBe(1000);
  });

  it('QFAIR-5: strict (0.6), consumed 600, hard → block fair-share', () => {
    const r = decide([dim({ consumed: 600, consumedTotal: 700, globalUsedPercent: 0.6 })], alloc());
    expect(r).toMatchObject({ kind: 'block', reason: 'fair-share' });
    if (r.kind === 'block')
      expect(r.dimension).toMatchObject({
        key: 'p:tokens:5h',
        mode: 'strict',
        consumed: 600,
        fairShare: 500,
        maxAllowed: 500,
      });
  });

  it('QFAIR-5: strict, consumed 300, hard → allow', () => {
    expect(decide([dim({ consumed: 300, consumedTotal: 700, globalUsedPercent: 0.6 })], alloc()).kind).toBe('allow');
  });

  it('QFAIR-9: cap 100 tokens with consumed 100 → cap-absolute, even for burst', () => {
    const r = decide(
      [dim({ consumed: 100, consumedTotal: 100, globalUsedPercent: 0.1 })],
      alloc({ policy: 'burst', capValue: 100, capUnit: 'tokens' }),
    );
    expect(r).toMatchObject({ kind: 'block', reason: 'cap-absolute' });
  });

  it('QFAIR-9: a cap in another unit does not apply to this dimension', () => {
    const r = decide([dim({ consumed: 100, consumedTotal: 100 })], alloc({ capValue: 100, capUnit: 'requests' }));
    expect(r.kind).toBe('allow');
  });

  it('QFAIR-9/10: multi-dimension, the requests cap (10) is hit → cap-absolute on that dimension', () => {
    const r = decide(
      [
        dim({ consumed: 10, consumedTotal: 10, globalUsedPercent: 0.01 }),
        dim({
          key: 'p:requests:hourly',
          unit: 'requests',
          limit: 100,
          consumed: 10,
          consumedTotal: 10,
          globalUsedPercent: 0.1,
        }),
      ],
      alloc({ capValue: 10, capUnit: 'requests' }),
    );
    expect(r).toMatchObject({ kind: 'block', reason: 'cap-absolute' });
    if (r.kind === 'block') expect(r.dimension.key).toBe('p:requests:hourly');
  });

  it('QFAIR-6: soft, generous, consumed 600 → allow + penalized', () => {
    const r = decide([dim({ consumed: 600, consumedTotal: 600, globalUsedPercent: 0.3 })], alloc({ policy: 'soft' }));
    expect(r).toMatchObject({ kind: 'allow', penalized: true });
    expect(r.evaluations[0]?.decision).toBe('penalize');
  });

  it('QFAIR-6: soft, strict, over share → penalized, never blocked', () => {
    const r = decide([dim({ consumed: 800, consumedTotal: 900, globalUsedPercent: 0.9 })], alloc({ policy: 'soft' }));
    expect(r).toMatchObject({ kind: 'allow', penalized: true });
  });

  it('QFAIR-8: total 1 000 ≥ limit with burst → global-saturated', () => {
    const r = decide([dim({ consumed: 100, consumedTotal: 1000, globalUsedPercent: 1 })], alloc({ policy: 'burst' }));
    expect(r).toMatchObject({ kind: 'block', reason: 'global-saturated' });
  });

  it('QFAIR-10: no dimensions → allow', () => {
    expect(decide([], alloc())).toEqual({ kind: 'allow', penalized: false, evaluations: [] });
  });

  it('QFAIR-5: an unknown policy is hard: strict over share blocks, under share allows, generous allows unpenalized', () => {
    const odd = alloc({ policy: 'weird' });
    expect(decide([dim({ consumed: 600, consumedTotal: 700, globalUsedPercent: 0.6 })], odd)).toMatchObject({
      kind: 'block',
      reason: 'fair-share',
    });
    expect(decide([dim({ consumed: 300, consumedTotal: 700, globalUsedPercent: 0.6 })], odd).kind).toBe('allow');
    expect(decide([dim({ consumed: 600, consumedTotal: 600, globalUsedPercent: 0.3 })], odd)).toMatchObject({
      kind: 'allow',
      penalized: false,
    });
  });
});

describe('fair share: equal split and weights', () => {
  it('QFAIR-4: two weight-0 allocations each get half', () => {
    expect(effectiveWeights([0, 0])).toEqual([50, 50]);
  });

  it('QFAIR-5: with an equal split, below half is allowed and at or above half is blocked in strict hard', () => {
    const [w] = effectiveWeights([0, 0]);
    const a = alloc({ effectiveWeight: w ?? 0 });
    expect(decide([dim({ consumed: 499, consumedTotal: 800, globalUsedPercent: 0.8 })], a).kind).toBe('allow');
    expect(decide([dim({ consumed: 500, consumedTotal: 800, globalUsedPercent: 0.8 })], a).kind).toBe('block');
    expect(decide([dim({ consumed: 700, consumedTotal: 800, globalUsedPercent: 0.8 })], a).kind).toBe('block');
  });

  it('QFAIR-4: three weight-0 allocations get 33.33 % each', () => {
    for (const w of effectiveWeights([0, 0, 0])) expect(w).toBeCloseTo(33.333, 3);
  });

  it('QFAIR-4: explicit 70/30 and mixed 50/0 are kept as written', () => {
    expect(effectiveWeights([70, 30])).toEqual([70, 30]);
    expect(effectiveWeights([50, 0])).toEqual([50, 0]);
    expect(effectiveWeights([])).toEqual([]);
  });
});

describe('fair share: request cost, unknown limits, independence', () => {
  const twentyPerHour = (consumed: number, consumedTotal: number) =>
    dim({
      key: 'p:requests:hourly',
      unit: 'requests',
      limit: 20,
      consumed,
      consumedTotal,
      globalUsedPercent: consumedTotal / 20,
    });
  const one = { requests: 1, tokens: 0, usd: 0 };

  it('QFAIR-5: a 50/50 hard split of 20/hour holds the bursting key at 10: the 11th request is refused', () => {
    const input = (n: number) => ({
      dimensions: [twentyPerHour(n, n)],
      allocation: alloc(),
      saturationThreshold: THRESHOLD,
      cost: one,
    });
    expect(decideFairShare(input(9)).kind).toBe('allow');
    expect(decideFairShare(input(10))).toMatchObject({ kind: 'block', reason: 'fair-share' });
  });

  it('QFAIR-5: a request that would cross the share from below is refused (sliding 9.6 + 1 > 10)', () => {
    const r = decideFairShare({
      dimensions: [twentyPerHour(9.6, 12)],
      allocation: alloc(),
      saturationThreshold: THRESHOLD,
      cost: one,
    });
    expect(r).toMatchObject({ kind: 'block', reason: 'fair-share' });
  });

  it('QFAIR-8: the pool limit stays a hard ceiling for the request\u2019s estimated cost', () => {
    const r = decideFairShare({
      dimensions: [dim({ consumed: 100, consumedTotal: 900, globalUsedPercent: 0.2 })],
      allocation: alloc({ policy: 'burst' }),
      saturationThreshold: THRESHOLD,
      cost: { requests: 1, tokens: 150, usd: 0 },
    });
    expect(r).toMatchObject({ kind: 'block', reason: 'global-saturated' });
  });

  it('QPLAN-2: a dimension with limit 0 (unknown) is skipped', () => {
    const r = decide([dim({ limit: 0, consumed: 1e9, consumedTotal: 1e9, globalUsedPercent: 1 })], alloc());
    expect(r).toEqual({ kind: 'allow', penalized: false, evaluations: [] });
  });

  it('QFAIR-10: dimensions are independent: a full 5h dimension blocks, the weekly one alone would allow', () => {
    const fiveHour = dim({
      key: 'p:percent:5h',
      unit: 'percent',
      limit: 100,
      consumed: 10,
      consumedTotal: 100,
      globalUsedPercent: 1,
    });
    const weekly = dim({
      key: 'p:percent:weekly',
      unit: 'percent',
      limit: 100,
      consumed: 10,
      consumedTotal: 20,
      globalUsedPercent: 0.2,
    });
    const both = decide([weekly, fiveHour], alloc());
    expect(both).toMatchObject({ kind: 'block', reason: 'global-saturated' });
    if (both.kind === 'block') expect(both.dimension.key).toBe('p:percent:5h');
    expect(both.evaluations.map((e) => e.decision)).toEqual(['allow', 'global-saturated']);
    expect(decide([weekly], alloc()).kind).toBe('allow');
  });

  it('QFAIR-10: a soft penalty on one dimension and an allow on another gives allow + penalized', () => {
    const r = decide(
      [
        dim({ consumed: 600, consumedTotal: 600, globalUsedPercent: 0.3 }),
        dim({ key: 'p:tokens:weekly', consumed: 10, consumedTotal: 10 }),
      ],
      alloc({ policy: 'soft' }),
    );
    expect(r).toMatchObject({ kind: 'allow', penalized: true });
    expect(r.evaluations).toHaveLength(2);
  });
});
