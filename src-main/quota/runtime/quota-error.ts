import type { AppError } from '../../../src-shared/contract/errors';
import type { QuotaBlockReason, QuotaPolicy, QuotaWindow } from '../../../src-shared/domain/quota';
import type { FairShareEvaluation } from '../engine/fair-share';

const round = (n: number) => Math.round(n * 1000) / 1000;

function why(reason: QuotaBlockReason, e: FairShareEvaluation): string {
  switch (reason) {
    case 'fair-share':
      return `it used ${round(e.consumed)} of its fair share of ${round(e.fairShare)} and the pool is past its saturation threshold (strict mode)`;
    case 'cap-absolute':
      return `it reached its absolute cap (${round(e.consumed)} used, cap ${round(e.maxAllowed)})`;
    case 'global-saturated':
      return `the pool's limit is used up (${round(e.consumedTotal)} of ${round(e.limit)}; this key ${round(e.consumed)}, fair share ${round(e.fairShare)})`;
  }
}

function wait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s}s`;
  const m = Math.ceil(s / 60);
  return m < 120 ? `${m}m` : `${Math.ceil(m / 60)}h`;
}

/**
 * The 429 a held request gets (QPIPE-2): the message names the pool, the key, the dimension and why;
 * `details` (rendered under `leeway.details` in the client's format) carries the numbers.
 */
export function quotaExceededError(input: {
  pool: string;
  key: string;
  policy: QuotaPolicy;
  reason: QuotaBlockReason;
  evaluation: FairShareEvaluation;
  window: QuotaWindow | null;
  retryAfterMs: number;
}): AppError {
  const e = input.evaluation;
  const dimension = `${e.unit}/${input.window ?? '?'}`;
  return {
    code: 'quota_exceeded',
    status: 429,
    retryAfterMs: input.retryAfterMs,
    message: `Quota pool "${input.pool}" holds key "${input.key}" on ${dimension} (limit ${round(e.limit)}): ${why(input.reason, e)}; retry in ${wait(input.retryAfterMs)}`,
    details: {
      pool: input.pool,
      key: input.key,
      dimension: { unit: e.unit, window: input.window, limit: e.limit },
      consumed: round(e.consumed),
      consumedTotal: round(e.consumedTotal),
      fairShare: round(e.fairShare),
      maxAllowed: round(e.maxAllowed),
      mode: e.mode,
      reason: input.reason,
      policy: input.policy,
    },
  };
}

/** Issue 24: the pool dimension a quota refusal names (`tokens/5h`), read back from its details; null for another error. */
export function quotaDimensionOf(error: AppError): string | null {
  const details = error.details;
  if (typeof details !== 'object' || details === null || !('dimension' in details)) return null;
  const dimension = details.dimension;
  if (typeof dimension !== 'object' || dimension === null) return null;
  const unit = 'unit' in dimension && typeof dimension.unit === 'string' ? dimension.unit : '?';
  const window = 'window' in dimension && typeof dimension.window === 'string' ? dimension.window : '?';
  return `${unit}/${window}`;
}
