import { asArray, asObject, asString, parseObject } from './json-narrow';

/**
 * What a Gemini 429 (`RESOURCE_EXHAUSTED`) says about waiting, for the resilience engine: Google
 * puts it in `error.details`, not in headers. `google.rpc.RetryInfo.retryDelay` is a proto
 * Duration ("41s", "34.074824224s"); without one, the message often ends "Please retry in 41.56s."
 * `google.rpc.QuotaFailure` names the quotas that ran out (`…PerMinute…`, `…PerDay…`), and
 * `google.rpc.ErrorInfo` may name the limit in `metadata.quota_limit` and say why in `reason`.
 */
export interface GeminiRateLimit {
  /** The wait Google asks for, in milliseconds; null when it names none. */
  retryAfterMs: number | null;
  /** The window that ran out: a daily quota waits for the day, a per-minute one about a minute. */
  window: 'day' | 'minute' | null;
  /** The quota ids named, in order (`GenerateRequestsPerMinutePerProjectPerModel-FreeTier`…). */
  quotaIds: string[];
  /** ErrorInfo's reason (`RATE_LIMIT_EXCEEDED`, `MODEL_CAPACITY_EXHAUSTED`…), when given. */
  reason: string | null;
}

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const QUOTA_FAILURE = 'type.googleapis.com/google.rpc.QuotaFailure';
const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const RETRY_IN_MESSAGE = /Please retry in ([0-9]+(?:\.[0-9]+)?(?:ms|s))\b/;

/** A proto Duration as JSON writes it ("41s", "0.5s"; "900ms" also read) → milliseconds, or null. */
export function googleDurationMs(text: string): number | null {
  const match = /^([0-9]+(?:\.[0-9]+)?)(ms|s)$/.exec(text.trim());
  if (!match?.[1]) return null;
  const value = Number(match[1]);
  return Math.round(match[2] === 'ms' ? value : value * 1000);
}

function windowOf(quotaId: string): 'day' | 'minute' | null {
  if (/PerDay|Daily/i.test(quotaId)) return 'day';
  if (/PerMinute/i.test(quotaId)) return 'minute';
  return null;
}

/** Reads a Google error body (JSON text); null when it is no Google error. */
export function readGeminiRateLimit(bodyText: string): GeminiRateLimit | null {
  const error = asObject(parseObject(bodyText)?.error);
  if (!error) return null;
  const out: GeminiRateLimit = { retryAfterMs: null, window: null, quotaIds: [], reason: null };
  let quotaLimit: string | null = null;
  for (const raw of asArray(error.details) ?? []) {
    const detail = asObject(raw);
    const type = asString(detail?.['@type']);
    if (type === RETRY_INFO) out.retryAfterMs = googleDurationMs(asString(detail?.retryDelay) ?? '');
    else if (type === ERROR_INFO) {
      out.reason = asString(detail?.reason);
      quotaLimit = asString(asObject(detail?.metadata)?.quota_limit);
    } else if (type === QUOTA_FAILURE) {
      for (const violation of asArray(detail?.violations) ?? []) {
        const id = asString(asObject(violation)?.quotaId);
        if (id) out.quotaIds.push(id);
      }
    }
  }
  // The longest window named is the one that still blocks after the shorter ones reopen.
  const windows = [...out.quotaIds, ...(quotaLimit ? [quotaLimit] : [])].map(windowOf);
  out.window = windows.includes('day') ? 'day' : windows.includes('minute') ? 'minute' : null;
  if (out.retryAfterMs === null) {
    const said = RETRY_IN_MESSAGE.exec(asString(error.message) ?? '')?.[1];
    if (said) out.retryAfterMs = googleDurationMs(said);
  }
  return out;
}
