import { NO_SIGNALS, type UpstreamSignals } from '../../kernel/upstream-signals';
import type { ResponseHeaders } from '../provider-hooks';
import { readRetryHeaders, toHeaderMap } from './retry-headers';
import { readWindows } from './window-headers';

/**
 * The header dialects every current kind may meet, read once: an `anthropic` or `openai-compatible`
 * connection may point at a gateway speaking another's headers, so each adapter reads them all.
 * Retry hints are read on errors only (a 2xx's are nobody's business); windows on every response.
 */
export function readHeaderSignals(status: number, headers: ResponseHeaders, now: number): UpstreamSignals {
  const windows = readWindows(headers, now);
  if (status < 400) return windows === null ? NO_SIGNALS : { ...NO_SIGNALS, windows };
  const retry = readRetryHeaders(toHeaderMap(headers), now);
  return { ...retry, windows: windows ?? NO_SIGNALS.windows };
}
