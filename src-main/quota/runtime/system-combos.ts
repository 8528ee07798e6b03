import type { QuotaDimension } from '../../../src-shared/domain/quota';
import type { PoolForCatalog } from '../../kernel/catalog';
import type { IndexedPool } from './pool-index';

/**
 * The pools the catalog turns into system combos (ROUTE-10), with DRR weights (ROUTE-11) from each
 * account's capacity: a connection whose manual plan states a limit for the pool's first dimension
 * (same unit and window) weighs that limit; one without such a plan weighs the pool's own limit, so
 * a pool over a Max 20x and a Max 5x account dispatches 4:1 once their plans say so, and equal
 * accounts (the usual case, no plans) share equally.
 */
export function systemCombosOf(
  pools: readonly IndexedPool[],
  plans: ReadonlyMap<string, QuotaDimension[]>,
): PoolForCatalog[] {
  const out: PoolForCatalog[] = [];
  for (const ip of pools) {
    const { pool } = ip;
    if (pool.connectionIds.length < 2) continue;
    const first = pool.dimensions[0];
    const weights = new Map<string, number>();
    if (first !== undefined && first.limit > 0) {
      for (const id of pool.connectionIds) {
        const own = plans.get(id)?.find((d) => d.unit === first.unit && d.window === first.window);
        weights.set(id, own !== undefined && own.limit > 0 ? own.limit : first.limit);
      }
    }
    out.push({ id: pool.id, name: pool.name, connectionIds: pool.connectionIds, weights });
  }
  return out;
}
