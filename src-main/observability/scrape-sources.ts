import type { QuotaPoolUsage } from '../../src-shared/domain/quota';
import type { SlotQueueStat } from '../resilience/queue/connection-slots';
import type { QuotaAdmin, QuotaPoolsRepo } from '../quota/quota-ports';
import type { ResilienceRuntime } from '../resilience/resilience-runtime';
import type { Catalog } from '../kernel/catalog';
import type { ScrapeSources } from './state-metrics';

export interface CoreParts {
  catalog(): Catalog | null;
  resilience(): ResilienceRuntime | null;
  quota(): QuotaAdmin | null;
  pools(): Pick<QuotaPoolsRepo, 'list'> | null;
  queues: { stats(at: number): SlotQueueStat[] };
}

/** The core's engines as a scrape reads them; each part may be absent (before start, after stop). */
export function coreScrapeSources(parts: CoreParts): ScrapeSources {
  return {
    snapshot: (at) => parts.resilience()?.control.snapshot(at) ?? null,
    async quota(at) {
      const quota = parts.quota();
      const pools = parts.pools()?.list() ?? [];
      if (!quota) return [];
      const usages = await Promise.all(pools.map((p) => quota.usage(p.id, at)));
      return usages.filter((u): u is QuotaPoolUsage => u !== null);
    },
    queues(at) {
      const names = new Map(parts.catalog()?.connections.map((c) => [c.view.id, c.view.name]) ?? []);
      return parts.queues.stats(at).map((q) => ({
        connection: names.get(q.connectionId) ?? q.connectionId,
        queued: q.queued,
        inFlight: q.inFlight,
      }));
    },
  };
}
