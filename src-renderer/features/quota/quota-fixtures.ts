import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import type {
  QuotaDimensionUsage,
  QuotaKeyUsage,
  QuotaPoolUsage,
  QuotaPoolView,
} from '../../../src-shared/domain/quota';

/** Test data for the Quota tab's component tests. */
export const T0 = 1_700_000_000_000;

export function fakeKey(name: string): LocalKeyView {
  return {
    id: `key-${name}`,
    name,
    prefix: 'lw-abcde',
    createdAt: 0,
    lastUsedAt: null,
    revokedAt: null,
    scopes: [],
    allowedConnections: [],
  };
}

export function fakePool(name: string, patch: Partial<QuotaPoolView> = {}): QuotaPoolView {
  const dimensions = [{ unit: 'requests', window: 'hourly', limit: 20 }] as QuotaPoolView['dimensions'];
  return {
    id: `pool-${name}`,
    name,
    connections: ['max-1'],
    dimensions,
    effectiveDimensions: dimensions,
    dimensionsSource: 'pool',
    allocations: [
      {
        keyId: 'key-alice',
        key: 'alice',
        weight: 50,
        effectiveWeight: 50,
        policy: 'hard',
        capValue: null,
        capUnit: null,
      },
      { keyId: 'key-bob', key: 'bob', weight: 50, effectiveWeight: 50, policy: 'soft', capValue: null, capUnit: null },
    ],
    saturationThreshold: null,
    createdAt: T0,
    updatedAt: T0,
    ...patch,
  };
}

export function keyUsage(key: string, patch: Partial<QuotaKeyUsage> = {}): QuotaKeyUsage {
  const consumed = patch.consumed ?? 0;
  const fairShare = patch.fairShare ?? 10;
  return {
    keyId: `key-${key}`,
    key,
    policy: 'hard',
    effectiveWeight: 50,
    consumed,
    fairShare,
    remaining: fairShare - consumed,
    deficit: consumed - fairShare,
    borrowing: false,
    decision: 'allow',
    ...patch,
  };
}

export function dimensionUsage(patch: Partial<QuotaDimensionUsage> = {}): QuotaDimensionUsage {
  return {
    dimensionKey: 'pool-team:requests:hourly',
    unit: 'requests',
    window: 'hourly',
    windowMs: 3_600_000,
    limit: 20,
    consumedTotal: 0,
    globalUsedPercent: 0,
    saturationSource: 'counter',
    mode: 'generous',
    keys: [keyUsage('alice'), keyUsage('bob', { policy: 'soft' })],
    burnRate: { perSecond: 0, timeToExhaustionMs: null, samples: 0 },
    history: [],
    ...patch,
  };
}

export function poolUsage(pool: QuotaPoolView, dimensions: QuotaDimensionUsage[]): QuotaPoolUsage {
  return { poolId: pool.id, name: pool.name, at: T0, saturationThreshold: 0.5, dimensions };
}
