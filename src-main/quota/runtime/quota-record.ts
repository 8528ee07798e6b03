import { actualCost, type RequestCost } from '../engine/cost-estimate';
import type { QuotaStore } from '../quota-ports';
import type { IndexedPool } from './pool-index';
import type { SignalWindow, WindowSignal } from '../../kernel/upstream-signals';

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
  /** The served response's windows as its provider adapter read them (saturation, QPIPE-6). */
  windows: readonly WindowSignal[];
}

/**
 * Consumes one served request on every dimension of its pool, by unit: requests 1, tokens and USD
 * from the usage the relay saw, percent from the growth of the provider's reported utilisation since
 * its previous report (no report, no growth: nothing is counted, never a block). A percent point on
 * one of N accounts is 1/N of the pool's scale, so it is weighted by limit / N.
 *
 * A store that answers synchronously is written synchronously and nothing is returned; otherwise
 * (Redis, or a counter whose mutex is busy) the promise of the writes still pending. Every dimension
 * is written even when one fails, as the writes were when all were async; the first failure is
 * thrown (sync) or rejected (async).
 */
export function recordConsumption(
  store: QuotaStore,
  ip: IndexedPool,
  /** The key's counter name (its name, see `IndexedPool.refs`). */
  storeKey: string,
  served: ServedCost,
  growth: ReadonlyMap<SignalWindow, number> | null,
  now: number,
): Promise<void> | undefined {
  const sync = store.sync?.() ?? null;
  const accounts = Math.max(1, ip.pool.connectionIds.length);
  let cost: RequestCost | null = null;
  let writes: Promise<number>[] | null = null;
  let failed = false;
  let failure: unknown = null;
  for (let d = 0; d < ip.dims.length; d++) {
    const dim = ip.dims[d];
    const ref = ip.refs[d];
    if (dim === undefined || ref === undefined) continue;
    let amount = 0;
    switch (dim.unit) {
      case 'requests':
        // `actualCost` counts every served answer as one request; no need to price it for that.
        amount = 1;
        break;
      case 'tokens':
        amount = (cost ??= costOf(served)).tokens;
        break;
      case 'usd':
        amount = Math.max(0, (cost ??= costOf(served)).usd);
        break;
      case 'percent': {
        const window = dim.window === '5h' ? '5h' : dim.window === 'weekly' || dim.window === 'monthly' ? '7d' : null;
        const grew = window === null ? undefined : growth?.get(window);
        amount = grew === undefined ? 0 : (grew * dim.limit) / accounts;
        break;
      }
    }
    if (!(amount > 0)) continue;
    let done: number | null = null;
    if (sync !== null) {
      try {
        done = sync.consume(storeKey, ref, amount, now);
      } catch (error) {
        if (!failed) failure = error;
        failed = true;
        continue;
      }
    }
    if (done === null) (writes ??= []).push(store.consume(storeKey, ref, amount, now));
  }
  if (writes === null) {
    if (failed) throw failure;
    return undefined;
  }
  const all = Promise.all(writes);
  return failed ? all.then(() => Promise.reject(failure)) : all.then(() => undefined);
}

function costOf(served: ServedCost): RequestCost {
  const u = served.usage;
  return actualCost(
    {
      inputTokens: u?.inputTokens ?? 0,
      outputTokens: u?.outputTokens ?? 0,
      cacheReadTokens: u?.cacheReadTokens ?? 0,
      cacheWriteTokens: u?.cacheWriteTokens ?? 0,
    },
    served.model,
  );
}
