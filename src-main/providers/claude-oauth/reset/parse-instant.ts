/** Epoch numbers below this are seconds, above it milliseconds (1e11 s is the year 5138). */
const SECONDS_CEILING = 1e11;

/**
 * Reads an upstream instant (`next_available_at`, `weekly_resets_at`) as epoch milliseconds.
 * The wire format is undocumented, so ISO strings and epoch seconds or milliseconds are all accepted.
 */
export function parseInstantMs(value: unknown): number | null {
  if (typeof value === 'number') return fromEpoch(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return fromEpoch(Number(text));
  const parsed = Date.parse(text);
  return Number.isFinite(parsed) ? parsed : null;
}

function fromEpoch(value: number): number | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  return Math.round(value < SECONDS_CEILING ? value * 1000 : value);
}

/** Narrows an unknown JSON value to a plain object. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
