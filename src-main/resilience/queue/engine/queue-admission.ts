import type { AppError } from '../../../../src-shared/contract/errors';

/** QUEUE-3: the queue-wait budget when nothing else is set (the seed's DEFAULT_REQUEST_QUEUE_MAX_WAIT_MS). */
export const DEFAULT_REQUEST_QUEUE_MAX_WAIT_MS = 30_000;
/** QUEUE-4: the execution backstop when nothing else is set (10 min). */
export const DEFAULT_REQUEST_QUEUE_EXECUTION_MAX_WAIT_MS = 600_000;
/** QUEUE-9: 0 = no cap on the requests waiting. */
export const DEFAULT_REQUEST_QUEUE_MAX_DEPTH = 0;

/** Retry-After of a queue-full refusal: the queue drains at the upstream's pace, so a short pause. */
export const QUEUE_FULL_RETRY_AFTER_MS = 1_000;

/**
 * QUEUE-8/10: whether one more request may join a queue that already holds `queued` waiters.
 * Pure: null admits (no cap when `maxDepth` ≤ 0, or room left); otherwise the typed refusal, given
 * before the request is enqueued, naming the cap and the queue (`identity`, e.g. "openai/glm").
 */
export function checkQueueAdmission(queued: number, maxDepth: number, identity = 'this connection'): AppError | null {
  if (!(maxDepth > 0) || queued < maxDepth) return null;
  return {
    code: 'RATE_LIMIT_QUEUE_FULL',
    message: `Request queue for ${identity} is full (maxQueueDepth ${maxDepth}, ${queued} waiting); retry shortly or raise maxQueueDepth in Settings › Resilience`,
    retryAfterMs: QUEUE_FULL_RETRY_AFTER_MS,
    details: { queued, maxQueueDepth: maxDepth, queue: identity },
  };
}

/** QUEUE-3: the refusal of a request that waited its whole budget; it never reached the upstream. */
export function queueTimeoutError(identity: string, maxWaitMs: number): AppError {
  return {
    code: 'RATE_LIMIT_QUEUE_TIMEOUT',
    message: `Request waited ${maxWaitMs} ms in the queue for ${identity} without a free slot (maxWaitMs); it was not sent upstream`,
    retryAfterMs: Math.min(maxWaitMs, 30_000),
    details: { maxWaitMs, queue: identity },
  };
}

/** QUEUE-5: the backstop's refusal once an attempt ran longer than its execution budget. */
export function executionTimeoutError(identity: string, executionMs: number): AppError {
  return {
    code: 'RATE_LIMIT_EXECUTION_TIMEOUT',
    message: `Request to ${identity} did not start answering within ${executionMs} ms (executionMaxWaitMs); it was aborted`,
    details: { executionMaxWaitMs: executionMs, queue: identity },
  };
}
