import type { UsageSample } from '../engine/burn-rate';
import { dimensionTotals } from '../engine/pool-dimensions';
import { SampleRing } from '../engine/sample-ring';
import type { BucketPairs } from '../quota-ports';
import type { IndexedPool } from './pool-index';

/** Burn-rate history: one sample per dimension at most this often (the chart's resolution). */
export const SAMPLE_EVERY_MS = 30_000;

/**
 * The pools' burn-rate histories in memory (a restart starts them over): fed from reads the request
 * path and the usage snapshot make anyway, so sampling costs no store call of its own.
 */
export function createHistory() {
  const rings = new Map<string, SampleRing[]>();
  const ringsOf = (ip: IndexedPool): SampleRing[] => {
    let r = rings.get(ip.pool.id);
    if (!r || r.length !== ip.dims.length) {
      r = ip.dims.map(() => new SampleRing());
      rings.set(ip.pool.id, r);
    }
    return r;
  };
  return {
    sampleIfDue(ip: IndexedPool, pairs: BucketPairs, saturation: readonly (number | null)[], now: number): void {
      const r = ringsOf(ip);
      const last = r[0]?.lastAt() ?? null;
      if (last !== null && now - last < SAMPLE_EVERY_MS) return;
      const dimCount = ip.dims.length;
      for (let d = 0; d < dimCount; d++) {
        const dim = ip.dims[d];
        if (dim === undefined) continue;
        const totals = dimensionTotals(dim, d, dimCount, ip.keyIds.length, pairs, now, saturation[d] ?? null);
        r[d]?.push(now, totals.consumedTotal);
      }
    },
    of(ip: IndexedPool): UsageSample[][] {
      return ringsOf(ip).map((ring) => ring.toArray());
    },
    /** Drops the histories of pools that are gone. */
    keep(ids: ReadonlySet<string>): void {
      for (const id of rings.keys()) if (!ids.has(id)) rings.delete(id);
    },
  };
}
