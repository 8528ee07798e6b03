/**
 * Whether a client should retry an error Leeway itself produced. The Anthropic and OpenAI SDKs
 * (and so Claude Code) honour `x-should-retry` over their own status rules, so a wrong local key or
 * a bad body fails at once instead of being retried with backoff for minutes.
 */
export interface RetryHints {
  /** `x-should-retry`; null leaves the client to its own rules (upstream-shaped 5xx). */
  shouldRetry: 'true' | 'false' | null;
  /** `Retry-After` in whole seconds; null for none. */
  retryAfterSeconds: number | null;
}

/** Refusals no retry can fix: the same request would get the same answer. */
const PERMANENT = new Set([400, 401, 403, 404, 405, 411, 413, 414, 415, 417, 422, 431]);

/** Passing states (timeout, queue full, all cooling, paused, storage down): worth a later retry. */
const TRANSIENT_DEFAULT_SECONDS = new Map([
  [408, 1],
  [429, 5],
  [503, 5],
]);

/** Hints for an error status, with the error's own retry delay when it has one. */
export function retryHintsOf(
  status: number,
  retryAfterMs: number | undefined,
  /** The error's own say (e.g. every target is cooling for longer than anyone would wait). */
  shouldRetry?: boolean,
): RetryHints {
  const own = retryAfterMs === undefined ? null : Math.max(1, Math.ceil(retryAfterMs / 1000));
  if (shouldRetry === false || PERMANENT.has(status)) return { shouldRetry: 'false', retryAfterSeconds: own };
  const fallback = TRANSIENT_DEFAULT_SECONDS.get(status);
  if (fallback !== undefined) return { shouldRetry: 'true', retryAfterSeconds: own ?? fallback };
  return { shouldRetry: null, retryAfterSeconds: own };
}
