/**
 * What one upstream response says about the upstream itself, read once by its provider adapter
 * (`ProviderAdapter.signals`, issue 22 step 3) and handed to every engine that learns from it: the
 * classifier (retry hints), the quota engine (window fill), the strategies (fill and reset), the
 * request log. No engine parses a rate-limit header of its own.
 */

/** A provider window: the long (subscription) windows, or a request/token rate limit. */
export type SignalWindow = '5h' | '7d' | 'requests' | 'tokens';

/** The windows in the order readers list them. */
export const SIGNAL_WINDOWS: readonly SignalWindow[] = ['5h', '7d', 'requests', 'tokens'];

/** One window as the response states it; either half may be missing. */
export interface WindowSignal {
  name: SignalWindow;
  /** Spent fraction 0..1; null when only the reset was stated. */
  used: number | null;
  /** Epoch ms of the window's reset; null when not stated. */
  resetAt: number | null;
}

/** Where a retry wait came from: `Retry-After`, `retry-after-ms`, a rate-limit reset header, or the body. */
export type RetrySource = 'retry-after' | 'retry-after-ms' | 'reset-header' | 'body';

export interface RetryAfterSignal {
  /** Milliseconds from the response, positive, clamped to a month. */
  ms: number;
  source: RetrySource;
}

export interface UpstreamSignals {
  /**
   * The wait the upstream asked for, whatever the status: `Retry-After`, then `retry-after-ms`, then
   * an exhausted limit's reset; else the body's own (Gemini's `retryDelay`). Read on errors only.
   */
  retryAfter: RetryAfterSignal | null;
  /** The bare `Retry-After` header as ms (0 for a past date), null when absent: restatement carries it over. */
  retryAfterHeaderMs: number | null;
  /**
   * The longest reset of limits that are not paired with a remaining/status header: a wait only
   * on 429/503, so a restated status decides whether it counts. Null when none, or when any limit is paired.
   */
  loneResetMs: number | null;
  /** Windows stated with a fill and/or a reset, in `SIGNAL_WINDOWS` order, fills first. */
  windows: readonly WindowSignal[];
}

/** A response that says nothing about its upstream (the common case): shared, so it allocates nothing. */
export const NO_SIGNALS: UpstreamSignals = Object.freeze({
  retryAfter: null,
  retryAfterHeaderMs: null,
  loneResetMs: null,
  windows: Object.freeze([]),
});

/** Retry hints and rate-limit resets: the header names an attempt keeps in the request log (never auth). */
export function isRetryHeaderName(name: string): boolean {
  if (name === 'retry-after' || name === 'retry-after-ms') return true;
  // anthropic-ratelimit-requests-reset, -unified-5h-reset …; x-ratelimit-reset-requests, -tokens (OpenAI).
  return (name.startsWith('anthropic-ratelimit-') && name.endsWith('-reset')) || name.startsWith('x-ratelimit-reset');
}
