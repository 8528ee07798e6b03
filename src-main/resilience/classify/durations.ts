/** Upper bound of any parsed reset: a hint beyond a month is noise, not a schedule. */
export const MAX_RETRY_HINT_MS = 30 * 24 * 3_600_000;

const UNIT = '(?:milliseconds?|msecs?|ms|days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)';
const PART = `\\d+(?:\\.\\d+)?\\s*${UNIT}(?![a-z])`;

/** One or more `<number><unit>` parts: `2h30m14s`, `6m0s`, `1.5s`, `13 days`, `1 hour and 30 minutes`. */
export const DURATION_SOURCE = `${PART}(?:\\s*,?\\s*(?:and\\s+)?${PART})*`;

const PART_RE = new RegExp(`(\\d+(?:\\.\\d+)?)\\s*(${UNIT})(?![a-z])`, 'g');
const WHOLE_DURATION_RE = new RegExp(`^\\s*${DURATION_SOURCE}\\s*$`, 'i');

function unitMs(unit: string): number {
  if (unit.startsWith('ms') || unit.startsWith('milli') || unit.startsWith('msec')) return 1;
  if (unit.startsWith('d')) return 86_400_000;
  if (unit.startsWith('h')) return 3_600_000;
  if (unit.startsWith('m')) return 60_000;
  return 1_000;
}

/** Sums the `<number><unit>` parts of a duration text; null when there are none. */
export function parseDurationText(text: string): number | null {
  let total = 0;
  let parts = 0;
  for (const match of text.toLowerCase().matchAll(PART_RE)) {
    total += Number(match[1]) * unitMs(match[2] ?? 's');
    parts += 1;
  }
  return parts > 0 && Number.isFinite(total) ? Math.round(total) : null;
}

/** Clamps a parsed wait to [0, MAX_RETRY_HINT_MS]; non-finite values are no hint at all. */
export function clampHint(ms: number): number | null {
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(0, Math.round(ms)), MAX_RETRY_HINT_MS);
}

/** Milliseconds from `now` to an absolute instant given as text (ISO 8601 / RFC 3339 or HTTP date). */
export function msUntilDate(text: string, now: number): number | null {
  const at = Date.parse(text.trim().toUpperCase().replace(/ UTC$/, 'Z'));
  return Number.isNaN(at) ? null : at - now;
}

/**
 * A reset header's value as a wait from `now`: epoch milliseconds, epoch seconds, delta seconds,
 * a compact duration (`6m0s`, OpenAI) or a timestamp (RFC 3339, Anthropic). Unreadable is null.
 */
export function parseResetValue(value: string, now: number): number | null {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    // Ten digits and more cannot be a wait: they are epoch seconds (2001+) or epoch milliseconds.
    if (n >= 1e10) return n - now;
    if (n >= 1e9) return n * 1_000 - now;
    return n * 1_000;
  }
  if (WHOLE_DURATION_RE.test(text)) return parseDurationText(text);
  if (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/.test(text)) return msUntilDate(text, now);
  return null;
}
