import { actualCost } from '../engine/cost-estimate';
import type { QuotaStore } from '../quota-ports';
import type { IndexedPool } from './pool-index';
import type { SaturationWindow } from './saturation-headers';

/** What a served answer cost, as the relay saw it (QPIPE-4). */
export interface ServedCost {
  usage: {
    inputTokens: number | null;
    outputTokens: number | null;
    cacheReadTokens: number | null;
    cacheWriteTokens: number | null;
  } | null;
  /** The model the upstream was asked for (prices are per model). */
  model: string;
  /** The served response's headers (saturation, QPIPE-6). */
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Consumes one served request on every dimension of its pool, by unit: requests 1, tokens and USD
 * from the usage the relay saw, percent from the growth of the provider's reported utilisation since
 * its previous report (no report, no growth: nothing is counted, never a block). A percent point on
 * one of N accounts is 1/N of the pool's scale, so it is weighted by limit / N.
 */
export async function recordConsumption(
  store: QuotaStore,
  ip: IndexedPool,
  /** The key's counter name (its name, see `IndexedPool.refs`). */
  storeKey: string,
  served: ServedCost,
  growth: ReadonlyMap<SaturationWindow, number> | null,
  now: number,
): Promise<void> {
  const u = served.usage;
  const cost = actualCost(
    {
      inputTokens: u?.inputTokens ?? 0,
      outputTokens: u?.outputTokens ?? 0,
      cacheReadTokens: u?.cacheReadTokens ?? 0,
      cacheWriteTokens: u?.cacheWriteTokens ?? 0,
    },
    served.model,
  );
  const accounts = Math.max(1, ip.pool.connectionIds.length);
  const writes: Promise<number>[] = [];
  for (let d = 0; d < ip.dims.length; d++) {
    const dim = ip.dims[d];
    const ref = ip.refs[d];
    if (dim === undefined || ref === undefined) continue;
    let amount = 0;
    switch (dim.unit) {
      case 'requests':
        amount = cost.requests;
        break;
      case 'tokens':
        amount = cost.tokens;
        break;
      case 'usd':
        amount = Math.max(0, cost.usd);
        break;
      case 'percent': {
        const window = dim.window === '5h' ? '5h' : dim.window === 'weekly' || dim.window === 'monthly' ? '7d' : null;
        const grew = window === null ? undefined : growth?.get(window);
        amount = grew === undefined ? 0 : (grew * dim.limit) / accounts;
        break;
      }
    }
    if (amount > 0) writes.push(store.consume(storeKey, ref, amount, now));
  }
  await Promise.all(writes);
}
