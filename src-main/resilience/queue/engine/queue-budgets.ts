import type { RequestQueueSettings } from '../../../../src-shared/domain/resilience-request-queue';
import type { RateLimitOverrides } from '../../../../src-shared/domain/connection';

/** One connection's queue budgets for one request, after precedence (QUEUE-7) and the backstop floor (QUEUE-4). */
export interface QueueBudgets {
  maxWaitMs: number;
  /** The execution backstop: never below the request's own response timeout, so a healthy request is never cut. */
  executionMs: number;
  maxQueueDepth: number;
}

const positive = (value: number | undefined): value is number => value !== undefined && value > 0;

/**
 * QUEUE-7: env < stored (both already folded into `settings`) < the connection's `rateLimitOverrides`
 * (a positive value only; 0 or absent means "no override"). QUEUE-4: the execution budget is the
 * larger of `executionMaxWaitMs` and the request's own `responseTimeoutMs`.
 */
export function resolveQueueBudgets(
  settings: RequestQueueSettings,
  overrides: RateLimitOverrides | undefined,
  responseTimeoutMs: number,
): QueueBudgets {
  const maxWaitMs = positive(overrides?.maxWaitMs) ? overrides.maxWaitMs : settings.maxWaitMs;
  const execution = positive(overrides?.executionMaxWaitMs)
    ? overrides.executionMaxWaitMs
    : settings.executionMaxWaitMs;
  const maxQueueDepth = positive(overrides?.maxQueueDepth) ? overrides.maxQueueDepth : settings.maxQueueDepth;
  return { maxWaitMs, executionMs: Math.max(execution, responseTimeoutMs), maxQueueDepth };
}
