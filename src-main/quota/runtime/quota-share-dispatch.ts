import type { SystemCombo } from '../../kernel/catalog';
import type { Target } from '../../kernel/target';
import type { AccountWindowReport } from '../engine/quota-share/account-windows';
import { createQuotaShareScheduler } from '../engine/quota-share/scheduler';
import type { QuotaRuntime } from './quota-runtime';

/** The `qtSd/` combos' ordering (ROUTE-10/11) as the plan stage uses it. */
export interface QuotaShareDispatch {
  /** Candidates in the scheduler's order; `release` ends the pick's in-flight lease (idempotent). */
  order(
    system: SystemCombo,
    candidates: readonly Target[],
    model: string,
    now: number,
  ): { ordered: readonly Target[]; release(): void };
}

/**
 * Wraps the engine's quota-share scheduler (DRR + P2C, saturation gating, concurrency partition):
 * before each pick the accounts' fresh 5 h / 7 d utilisation reports (QPIPE-6) feed its gating, and
 * each connection's maxConcurrent feeds its concurrency partition.
 */
export function createQuotaShareDispatch(quota: Pick<QuotaRuntime, 'saturation'>): QuotaShareDispatch {
  const scheduler = createQuotaShareScheduler<{ connectionId: string; weight: number; target: Target }>();
  return {
    order(system, candidates, model, now) {
      const maxConcurrentByConnection: Record<string, number | null> = {};
      for (const t of candidates) {
        const id = t.connection.view.id;
        maxConcurrentByConnection[id] = t.connection.view.maxConcurrent;
        const windows: AccountWindowReport[] = [];
        for (const window of ['5h', '7d'] as const) {
          const fraction = quota.saturation.fresh(id, window, now);
          // Good for this pick only: re-fed while the report is fresh (30 s, QPIPE-6), so an account
          // that reported a full window is tried again once its report is stale, and reports anew.
          if (fraction !== null) windows.push({ window, usedPercent: fraction * 100, resetAt: now + 1 });
        }
        if (windows.length > 0) scheduler.recordAccountWindows(id, windows, now);
      }
      const items = candidates.map((target) => ({
        connectionId: target.connection.view.id,
        weight: system.weights.get(target.connection.view.id) ?? 1,
        target,
      }));
      const pick = scheduler.select(items, system.view.name, model, now, { maxConcurrentByConnection });
      return { ordered: pick.orderedTargets.map((i) => i.target), release: pick.release };
    },
  };
}
