import { AccountWindows, type AccountWindowReport } from './account-windows';
import { DrrState, drrWeights, MAX_DRR_COMBOS } from './drr';
import { IN_FLIGHT_LEASE_TTL_MS, InFlightLeases } from './in-flight';

/** What the scheduler needs of a target; the caller's own fields travel along untouched. */
export interface QuotaShareTarget {
  connectionId: string | null;
  /** DRR weight; missing = 1, 0 = disabled against weighted siblings. */
  weight?: number;
}

export interface QuotaShareOptions {
  /** Per connection id: its maxConcurrent; null, 0, negative or missing = no limit. */
  maxConcurrentByConnection?: Readonly<Record<string, number | null | undefined>>;
}

export interface QuotaShareSelection<T> {
  target: T | null;
  /** The winner, the other dispatchable targets best first, then those at their cap, then the saturated. */
  orderedTargets: T[];
  /** Ends the winner's in-flight lease; idempotent. */
  release: () => void;
}

export interface QuotaShareScheduler<T extends QuotaShareTarget> {
  select(
    targets: readonly T[],
    comboName: string,
    model: string,
    now: number,
    options?: QuotaShareOptions,
  ): QuotaShareSelection<T>;
  /** Feeds saturation gating from the provider's usage report of one connection's account. */
  recordAccountWindows(connectionId: string, windows: readonly AccountWindowReport[], now: number): void;
  inFlight(connectionId: string | null, now: number): number;
  /** Counts a request in flight outside `select` (e.g. a retry on the same connection); returns its release. */
  acquire(connectionId: string | null, now: number): () => void;
  isSaturated(connectionId: string | null, model: string, now: number): boolean;
  /** How many combos hold DRR state (≤ 200). */
  comboCount(): number;
}

function noop(): void {}

/**
 * The `quota-share` strategy (ROUTE-11, REFERENCE §12.7) as pure state with `now` passed in:
 * saturated accounts go to the tail (all saturated: none demoted, fail-open); targets at their
 * concurrency cap go before them (all at cap: none demoted); among the rest DRR picks by weight,
 * and between DRR's top two the runner-up wins only with strictly fewer requests in flight (P2C).
 * The winner holds an in-flight lease (120 s TTL) until `release`. Unlike the reference, a single
 * target also takes a lease, so a connection shared with other combos is not under-counted.
 */
export function createQuotaShareScheduler<T extends QuotaShareTarget>(
  config: { leaseTtlMs?: number; maxCombos?: number } = {},
): QuotaShareScheduler<T> {
  const windows = new AccountWindows();
  const leases = new InFlightLeases(config.leaseTtlMs ?? IN_FLIGHT_LEASE_TTL_MS);
  const drr = new DrrState(config.maxCombos ?? MAX_DRR_COMBOS);

  function capOf(t: T, options: QuotaShareOptions | undefined): number | null {
    if (t.connectionId === null) return null;
    const cap = options?.maxConcurrentByConnection?.[t.connectionId];
    return cap !== null && cap !== undefined && cap > 0 ? cap : null;
  }

  return {
    select(targets, comboName, model, now, options) {
      if (targets.length === 0) return { target: null, orderedTargets: [], release: noop };
      const only = targets[0];
      if (targets.length === 1 && only !== undefined) {
        return { target: only, orderedTargets: [only], release: leases.acquire(only.connectionId, now) };
      }

      // 1. Saturation gating (fail-open when every account is saturated).
      const saturated = targets.map((t) => windows.isSaturated(t.connectionId, model, now));
      const allSaturated = saturated.every(Boolean);
      const open: number[] = [];
      const saturatedTail: number[] = [];
      targets.forEach((_, i) => (allSaturated || !saturated[i] ? open : saturatedTail).push(i));

      // 2. Concurrency partition (none demoted when all are at their cap).
      const load = targets.map((t) => leases.count(t.connectionId, now));
      const atCapOf = (i: number): boolean => {
        const t = targets[i];
        const cap = t === undefined ? null : capOf(t, options);
        return cap !== null && (load[i] ?? 0) >= cap;
      };
      let ready = open.filter((i) => !atCapOf(i));
      let atCap = open.filter(atCapOf);
      if (ready.length === 0) {
        ready = open;
        atCap = [];
      }

      // 3. DRR over the ready targets.
      const deficits = drr.deficitsOf(comboName);
      const keyOf = (i: number): string => targets[i]?.connectionId ?? `#${i}`;
      const weights = drrWeights(ready.map((i) => targets[i]?.weight));
      const total = weights.reduce((s, w) => s + w, 0);
      ready.forEach((i, r) => deficits.set(keyOf(i), (deficits.get(keyOf(i)) ?? 0) + (weights[r] ?? 0) / total));
      // Largest deficit first; ties keep input order (Array.prototype.sort is stable).
      const ranked = [...ready].sort((a, b) => (deficits.get(keyOf(b)) ?? 0) - (deficits.get(keyOf(a)) ?? 0));

      // 4. P2C between DRR's top two.
      const first = ranked[0] ?? 0;
      const second = ranked[1];
      const winner = second !== undefined && (load[second] ?? 0) < (load[first] ?? 0) ? second : first;
      deficits.set(keyOf(winner), (deficits.get(keyOf(winner)) ?? 0) - 1);

      // 5. Lease and order.
      const order = [winner, ...ranked.filter((i) => i !== winner), ...atCap, ...saturatedTail];
      const orderedTargets = order.map((i) => targets[i]).filter((t): t is T => t !== undefined);
      const target = targets[winner] ?? null;
      return { target, orderedTargets, release: leases.acquire(target?.connectionId ?? null, now) };
    },
    recordAccountWindows: (connectionId, reports, now) => windows.record(connectionId, reports, now),
    inFlight: (connectionId, now) => leases.count(connectionId, now),
    acquire: (connectionId, now) => leases.acquire(connectionId, now),
    isSaturated: (connectionId, model, now) => windows.isSaturated(connectionId, model, now),
    comboCount: () => drr.size,
  };
}
