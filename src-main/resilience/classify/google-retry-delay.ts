import { readGeminiRateLimit } from '../../translate/gemini-rate-limit';

/**
 * Issue 23 §1: Google says how long to wait in the error body, not in a header:
 * `error.details[]` holds a `google.rpc.RetryInfo` whose `retryDelay` is a proto Duration ("41s").
 * Read (one parse) only when the body names RetryInfo; null otherwise. Kept in one place so the
 * upstream-signals reader can take it over as is.
 */
export function googleRetryDelayMs(text: string): number | null {
  if (!text.includes('google.rpc.RetryInfo')) return null;
  const ms = readGeminiRateLimit(text)?.retryAfterMs ?? null;
  return ms !== null && ms > 0 ? ms : null;
}
