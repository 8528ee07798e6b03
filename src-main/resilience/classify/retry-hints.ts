import type { UpstreamSignals } from '../../kernel/upstream-signals';
import type { RetryHint } from './classification';
import { parseRetryFromText } from './reset-text';

/** Statuses whose error may announce a retry window to the client (RESTATE-5). */
export const RETRY_AFTER_ELIGIBLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * COOL-4: the upstream's reset, from the adapter's signals (issue 22 step 3: no header is parsed
 * here): a header's wait first, then a lone limit reset when the (restated) status makes it one,
 * then the body's (the adapter's, else the error text's); zero waits are no hint.
 */
export function findRetryHint(signals: UpstreamSignals, status: number, text: string, now: number): RetryHint | null {
  const stated = signals.retryAfter;
  if (stated !== null && stated.source !== 'body') return { ms: stated.ms, source: 'header' };
  const lone = signals.loneResetMs;
  if (lone !== null && lone > 0 && RETRY_AFTER_ELIGIBLE_STATUSES.has(status)) return { ms: lone, source: 'header' };
  if (stated !== null) return { ms: stated.ms, source: 'body' };
  const fromBody = parseRetryFromText(text, now);
  if (fromBody !== null && fromBody > 0) return { ms: fromBody, source: 'body' };
  return null;
}
