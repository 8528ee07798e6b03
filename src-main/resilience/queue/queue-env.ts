import type { RequestQueuePatch } from '../../../src-shared/domain/resilience-request-queue';
import type { EnvSource } from '../breaker/setting-overrides';

const DAY_MS = 86_400_000;

/**
 * One variable: unset, blank, non-numeric or below the range's floor → left out (the default
 * stays: an invalid -5 must not become 1 ms); above the ceiling → clamped (QUEUE-6: 24 h).
 */
function readBudget(env: EnvSource, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Math.floor(Number(raw));
  if (!Number.isFinite(value) || value < min) return undefined;
  return Math.min(max, value);
}

/**
 * QUEUE-6/9: `RATE_LIMIT_MAX_WAIT_MS`, `RATE_LIMIT_EXECUTION_MAX_WAIT_MS` (1 ms – 24 h) and
 * `RATE_LIMIT_MAX_QUEUE_DEPTH` (0 – 100 000) as the requestQueue base layer: only the defaults,
 * since a stored value wins over them (QUEUE-7).
 */
export function requestQueueFromEnv(env: EnvSource): RequestQueuePatch {
  const patch: RequestQueuePatch = {};
  const maxWaitMs = readBudget(env, 'RATE_LIMIT_MAX_WAIT_MS', 1, DAY_MS);
  const executionMaxWaitMs = readBudget(env, 'RATE_LIMIT_EXECUTION_MAX_WAIT_MS', 1, DAY_MS);
  const maxQueueDepth = readBudget(env, 'RATE_LIMIT_MAX_QUEUE_DEPTH', 0, 100_000);
  if (maxWaitMs !== undefined) patch.maxWaitMs = maxWaitMs;
  if (executionMaxWaitMs !== undefined) patch.executionMaxWaitMs = executionMaxWaitMs;
  if (maxQueueDepth !== undefined) patch.maxQueueDepth = maxQueueDepth;
  return patch;
}
