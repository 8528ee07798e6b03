import { describe, expect, it } from 'vitest';
import type { QuotaDimensionUsage, QuotaPoolUsage } from '../../../src-shared/domain/quota';
import { quotaLine, saturatedPools } from './quota-items';

const dim = (patch: Partial<QuotaDimensionUsage>): QuotaDimensionUsage => ({
  dimensionKey: 'p:requests:hourly',
  unit: 'requests',
  window: 'hourly',
  windowMs: 3_600_000,
  limit: 100,
  consumedTotal: 0,
  globalUsedPercent: 0,
  saturationSource: 'counter',
  mode: 'generous',
  keys: [],
  burnRate: { perSecond: 0, timeToExhaustionMs: null, samples: 0 },
  history: [],
  ...patch,
});
const pool = (name: string, dimensions: QuotaDimensionUsage[], saturationThreshold = 0.5): QuotaPoolUsage => ({
  poolId: `id-${name}`,
  name,
  at: 0,
  saturationThreshold,
  dimensions,
});

describe('tray quota items', () => {
  it('PROD-4 QUI-1: a pool at or past its threshold shows its most used dimension, e.g. "Quota: team 85 % (5h tokens)"', () => {
    const items = saturatedPools([
      pool('team', [
        dim({ globalUsedPercent: 0.6 }),
        dim({ unit: 'tokens', window: '5h', globalUsedPercent: 0.85, saturationSource: 'provider' }),
      ]),
    ]);
    expect(items.map(quotaLine)).toEqual(['Quota: team 85 % (5h tokens)']);
  });

  it('PROD-4: pools below their threshold and dimensions with an unknown, unreported limit are left out', () => {
    const items = saturatedPools([
      pool('calm', [dim({ globalUsedPercent: 0.49 })]),
      pool('strict-pool', [dim({ globalUsedPercent: 0.3 })], 0.25),
      pool('unknown', [dim({ limit: 0, globalUsedPercent: 0.9 })]),
      pool('full', [dim({ globalUsedPercent: 1 })]),
    ]);
    expect(items.map(quotaLine)).toEqual([
      'Quota: full 100 % (hourly requests)',
      'Quota: strict-pool 30 % (hourly requests)',
    ]);
  });
});
