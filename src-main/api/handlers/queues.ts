import { ok } from '../../../src-shared/contract/errors';
import type { RequestQueueView } from '../../../src-shared/domain/request-queue-view';
import { resolveQueueBudgets } from '../../resilience/queue/engine/queue-budgets';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';

/**
 * `queues.list` (QUEUE-1): every connection with maxConcurrent and its queue now; one without any
 * traffic yet shows zeros. Budgets are shown after precedence (QUEUE-7), execution without the
 * per-request response-timeout floor.
 */
export function queueHandlers(deps: HandlerDeps): Pick<Handlers, 'queues.list'> {
  return {
    'queues.list': () => {
      const now = deps.now();
      const stats = new Map((deps.queues?.stats(now) ?? []).map((s) => [s.connectionId, s]));
      const settings = deps.resilienceSettings.get().requestQueue;
      const views: RequestQueueView[] = [];
      for (const c of deps.connections.list()) {
        if (c.maxConcurrent === null) continue;
        const s = stats.get(c.id);
        const budgets = resolveQueueBudgets(settings, c.rateLimitOverrides, 0);
        views.push({
          connectionId: c.id,
          connection: c.name,
          maxConcurrent: c.maxConcurrent,
          queued: s?.queued ?? 0,
          inFlight: s?.inFlight ?? 0,
          waitP50Ms: s?.waitP50Ms ?? null,
          waitP95Ms: s?.waitP95Ms ?? null,
          samples: s?.samples ?? 0,
          maxWaitMs: budgets.maxWaitMs,
          executionMaxWaitMs: budgets.executionMs,
          maxQueueDepth: budgets.maxQueueDepth,
        });
      }
      return ok(views);
    },
  };
}
