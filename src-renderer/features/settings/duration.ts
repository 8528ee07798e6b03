/**
 * Durations as people type them (issue 13 §8). The core stores and the contract carries
 * milliseconds; a settings field shows its value in one unit (seconds, minutes or hours) and reads
 * back either a plain number in that unit or a duration with its own units: "90 s", "1h 30m", "500 ms".
 */
export type DurationUnit = 'ms' | 's' | 'min' | 'h';

export const UNIT_MS: Readonly<Record<DurationUnit, number>> = { ms: 1, s: 1_000, min: 60_000, h: 3_600_000 };

/** How the unit is written beside a field. */
export const UNIT_LABEL: Readonly<Record<DurationUnit, string>> = {
  ms: 'ms',
  s: 'seconds',
  min: 'minutes',
  h: 'hours',
};

/** Milliseconds per spelling accepted after a number, lower-cased. */
const FACTORS: Readonly<Record<string, number>> = Object.fromEntries(
  (
    [
      [['ms', 'msec', 'millisecond', 'milliseconds'], 1],
      [['s', 'sec', 'secs', 'second', 'seconds'], 1_000],
      [['m', 'min', 'mins', 'minute', 'minutes'], 60_000],
      [['h', 'hr', 'hrs', 'hour', 'hours'], 3_600_000],
      [['d', 'day', 'days'], 86_400_000],
    ] as const
  ).flatMap(([words, factor]) => words.map((w) => [w, factor])),
);

/** The stored milliseconds in the field's unit, as the input shows them: "2", "1.5", "0.25". */
export function msToUnitText(ms: number, unit: DurationUnit): string {
  const value = ms / UNIT_MS[unit];
  return String(Math.round(value * 1000) / 1000);
}

export type DurationParse = { ok: true; ms: number } | { ok: false; message: string };

const TOKEN = /(\d+(?:\.\d+)?|\.\d+)\s*([a-zA-Z]*)/g;

/**
 * Reads what was typed: a plain number is in `unit`; numbers with units add up ("1 h 30 min").
 * Rounds to whole milliseconds, which is what the core stores.
 */
export function parseDuration(text: string, unit: DurationUnit): DurationParse {
  const trimmed = text.trim().replace(/_/g, '');
  const refuse: DurationParse = {
    ok: false,
    message: `Enter a duration in ${UNIT_LABEL[unit]}, or with its unit, e.g. 90 s or 2 min`,
  };
  if (trimmed === '') return { ok: false, message: 'Enter a value' };
  // A plain number may group its digits with spaces ("86 400"), as the old millisecond fields allowed.
  if (/^[\d.\s]+$/.test(trimmed)) {
    const n = Number(trimmed.replace(/\s/g, ''));
    return Number.isFinite(n) ? { ok: true, ms: Math.round(n * UNIT_MS[unit]) } : refuse;
  }
  let total = 0;
  let consumed = '';
  for (const match of trimmed.matchAll(TOKEN)) {
    const [whole, number = '', suffix = ''] = match;
    const factor = suffix === '' ? UNIT_MS[unit] : FACTORS[suffix.toLowerCase()];
    if (factor === undefined) return refuse;
    total += Number(number) * factor;
    consumed += whole;
  }
  // Anything left over (a sign, a stray word, "1,5") is not a duration we can read.
  if (consumed.replace(/\s/g, '') !== trimmed.replace(/\s/g, '')) return refuse;
  return { ok: true, ms: Math.round(total) };
}
