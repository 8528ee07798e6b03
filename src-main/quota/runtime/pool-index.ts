import { poolDimensionsOf, type PoolDimension } from '../engine/pool-dimensions';
import type { FairShareDimension } from '../engine/fair-share';
import type { BucketPairs, DimensionRef, ResolvedPool } from '../quota-ports';

/** One pool as the request path reads it: enforced dimensions and counter addresses computed once. */
export interface IndexedPool {
  pool: ResolvedPool;
  /** Every dimension in force, limits as the pool's totals (`refs[i]` is `dims[i]`'s counter address). */
  dims: readonly PoolDimension[];
  /**
   * Counter addresses by pool and key NAME, not id: several instances on one Redis (QDRV-2) each
   * have their own SQLite ids but share the config's names, so they count one pool. Renaming a pool
   * or a key starts its counters afresh.
   */
  refs: readonly DimensionRef[];
  /** The allocations' key names in order: the `k` of `readMany`'s `k * dims.length + d`. */
  storeKeys: readonly string[];
  /** The allocations' key ids in the same order. */
  keyIds: readonly string[];
  allocationIndex: ReadonlyMap<string, number>;
  /** Whether any dimension has a known limit (0 = unknown): a pool without one enforces nothing. */
  enforces: boolean;
  /** Whether a dimension counts `percent` (only those use the growth of the provider's reports). */
  countsPercent: boolean;
  /**
   * Working memory of the synchronous pre-check, sized once per pool change and overwritten by each
   * check: read, used and dropped within one synchronous call, so no two checks ever share it.
   */
  scratch: PoolScratch;
}

/** See `IndexedPool.scratch`. */
export interface PoolScratch {
  /** `storeKeys.length * dims.length` bucket pairs. */
  pairs: BucketPairs;
  /** Per dimension, the utilisation the decision uses (see `effectiveSaturation`). */
  saturation: (number | null)[];
  /** The decision's inputs, objects reused (see `fairShareDimensionsFor`). */
  dimensions: FairShareDimension[];
}

/** keyId → connectionId → pool, plus lookups for the admin door. Rebuilt on reload, read per request. */
export interface PoolIndex {
  byKey: ReadonlyMap<string, ReadonlyMap<string, IndexedPool>>;
  /** keyId → the connections some pool covers for it (`byKey`'s inner keys as a set, for `QuotaMark.covered`). */
  coveredByKey: ReadonlyMap<string, ReadonlySet<string>>;
  pools: readonly IndexedPool[];
  /** Connections that belong to any pool: only their responses are read for saturation. */
  connections: ReadonlySet<string>;
}

export const EMPTY_INDEX: PoolIndex = { byKey: new Map(), coveredByKey: new Map(), pools: [], connections: new Set() };

/**
 * `fromPlan`: the dimensions are one account's plan (not written on the pool), so a pool over several
 * accounts of that plan has that many times the capacity (REFERENCE §12.4 step 4). A pool's own
 * dimensions state its total already (QFAIR-11).
 */
function indexPool(pool: ResolvedPool, fromPlan: boolean): IndexedPool {
  const dims = poolDimensionsOf(pool.id, pool.dimensions, fromPlan ? pool.connectionIds.length : 1);
  const refs = dims.map((d) => ({ key: `${pool.name}:${d.unit}:${d.window}`, windowMs: d.windowMs }));
  const keyIds = pool.allocations.map((a) => a.keyId);
  const size = keyIds.length * dims.length;
  return {
    pool,
    dims,
    refs,
    storeKeys: pool.allocations.map((a) => a.keyName),
    keyIds,
    allocationIndex: new Map(keyIds.map((id, i) => [id, i])),
    enforces: dims.some((d) => d.limit > 0),
    countsPercent: dims.some((d) => d.unit === 'percent'),
    scratch: {
      pairs: { prev: new Float64Array(size), curr: new Float64Array(size) },
      saturation: dims.map(() => null),
      dimensions: [],
    },
  };
}

/** The first pool listing both the key and the connection decides (REFERENCE §12.4 step 1). */
export function buildPoolIndex(pools: readonly ResolvedPool[], fromPlan: ReadonlySet<string> = new Set()): PoolIndex {
  const byKey = new Map<string, Map<string, IndexedPool>>();
  const indexed = pools.map((p) => indexPool(p, fromPlan.has(p.id)));
  const connections = new Set<string>();
  for (const ip of indexed) {
    for (const c of ip.pool.connectionIds) connections.add(c);
    if (!ip.enforces) continue;
    for (const keyId of ip.keyIds) {
      const forKey = byKey.get(keyId) ?? new Map<string, IndexedPool>();
      byKey.set(keyId, forKey);
      for (const c of ip.pool.connectionIds) if (!forKey.has(c)) forKey.set(c, ip);
    }
  }
  const coveredByKey = new Map<string, ReadonlySet<string>>();
  for (const [keyId, forKey] of byKey) coveredByKey.set(keyId, new Set(forKey.keys()));
  return { byKey, coveredByKey, pools: indexed, connections };
}

/** A pool by id or by name (the admin door accepts either). */
export function findPool(index: PoolIndex, idOrName: string): IndexedPool | null {
  return index.pools.find((p) => p.pool.id === idOrName) ?? index.pools.find((p) => p.pool.name === idOrName) ?? null;
}
