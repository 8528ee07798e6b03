import { clampHint, DURATION_SOURCE, msUntilDate, parseDurationText, parseResetValue } from './durations';

type Extractor = (t: string, now: number) => number | null;

const ISO = String.raw`\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:z|utc|[+-]\d{2}:?\d{2})?`;

const GOOGLE_RETRY_DELAY = /"retrydelay"\s*:\s*"(\d+(?:\.\d+)?)(ms|s|m|h)?"/;
const CLAUDE_LIMIT_EPOCH = /usage limit reached\|(\d{10,13})/;
const JSON_RESET_AT = /"(?:resets?_?at|reset_?time)"\s*:\s*"?([^",}\s]+(?: \d{2}:[^",}]+)?)/;
const JSON_RETRY_AFTER = /"retry[_-]?after(_?ms)?"\s*:\s*"?(\d+(?:\.\d+)?)/;
const ISO_AFTER_KEYWORD = new RegExp(
  String.raw`(?:try again at|wait until|resets? at|available (?:again )?at|retry after|until)\s*:?\s*(${ISO})`,
);
const DURATION_AFTER_KEYWORD = new RegExp(
  String.raw`(?:try again|retry|resets?|available(?: again)?|wait)\s+(?:in|after|for)\s+(?:about\s+|approximately\s+|~\s*)?(${DURATION_SOURCE})`,
);

const DELAY_UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** First match wins: structured hints inside the text first, then prose (reference §3.6). */
const EXTRACTORS: readonly Extractor[] = [
  (t) => {
    const m = GOOGLE_RETRY_DELAY.exec(t);
    return m ? Number(m[1]) * (DELAY_UNIT_MS[m[2] ?? 's'] ?? 1_000) : null;
  },
  (t, now) => {
    const m = CLAUDE_LIMIT_EPOCH.exec(t);
    return m?.[1] ? parseResetValue(m[1], now) : null;
  },
  (t, now) => {
    const m = JSON_RESET_AT.exec(t);
    return m?.[1] ? parseResetValue(m[1], now) : null;
  },
  (t) => {
    const m = JSON_RETRY_AFTER.exec(t);
    if (!m?.[2]) return null;
    return Number(m[2]) * (m[1] ? 1 : 1_000);
  },
  (t, now) => {
    const m = ISO_AFTER_KEYWORD.exec(t);
    return m?.[1] ? msUntilDate(m[1].replace(' ', 'T'), now) : null;
  },
  (t) => {
    const m = DURATION_AFTER_KEYWORD.exec(t);
    return m?.[1] ? parseDurationText(m[1]) : null;
  },
];

/**
 * A reset time stated in error text ("try again in 20s", "resets at 2025-06-01T10:00:00Z",
 * "reset after 2h30m14s", Google `retryDelay`) as milliseconds from `now`, capped at 30 days.
 * Past instants and zero waits are no hint.
 */
export function parseRetryFromText(text: string, now: number): number | null {
  if (!text) return null;
  const t = text.toLowerCase();
  for (const extract of EXTRACTORS) {
    const raw = extract(t, now);
    if (raw === null) continue;
    const ms = clampHint(raw);
    if (ms !== null && ms > 0) return ms;
  }
  return null;
}
