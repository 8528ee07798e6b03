import {
  QUOTA_WINDOW_MS,
  type QuotaPoolUsage,
  type QuotaPoolView,
  type QuotaStoreStatus,
} from '../../../src-shared/domain/quota';
import type { QuotaAdmin } from '../../quota/quota-ports';

export const FAKE_STORE_STATUS: QuotaStoreStatus = {
  configured: 'sqlite',
  configuredFrom: 'default',
  active: 'sqlite',
  redisUrl: null,
  fallbackReason: null,
  saturationThreshold: 0.5,
  softDeprioritizeFactor: 0.7,
  retentionDays: 14,
};

/** A snapshot of a pool nobody has used yet: every key at zero with its whole fair share left. */
export function zeroUsage(pool: QuotaPoolView, now: number): QuotaPoolUsage {
  const threshold = pool.saturationThreshold ?? FAKE_STORE_STATUS.saturationThreshold;
  return {
    poolId: pool.id,
    name: pool.name,
    at: now,
    saturationThreshold: threshold,
    dimensions: pool.effectiveDimensions.map((d) => ({
      dimensionKey: `${pool.id}:${d.unit}:${d.window}`,
      unit: d.unit,
      window: d.window,
      windowMs: QUOTA_WINDOW_MS[d.window],
      limit: d.limit,
      consumedTotal: 0,
      globalUsedPercent: 0,
      saturationSource: 'counter',
      mode: 'generous',
      keys: pool.allocations.map((a) => {
        const fairShare = (d.limit * a.effectiveWeight) / 100;
        return {
          keyId: a.keyId,
          key: a.key,
          policy: a.policy,
          effectiveWeight: a.effectiveWeight,
          consumed: 0,
          fairShare,
          remaining: fairShare,
          deficit: -fairShare,
          borrowing: false,
          decision: 'allow',
        };
      }),
      burnRate: { perSecond: 0, timeToExhaustionMs: null, samples: 0 },
      history: [],
    })),
  };
}

/** The engine's admin face without the engine, for handler and REST tests: pools by id or name, no counters. */
export function createFakeQuotaAdmin(pools: () => QuotaPoolView[]): QuotaAdmin {
  return {
    usage: (idOrName, now) => {
      const pool = pools().find((p) => p.id === idOrName || p.name === idOrName);
      return Promise.resolve(pool ? zeroUsage(pool, now) : null);
    },
    storeStatus: () => FAKE_STORE_STATUS,
  };
}
