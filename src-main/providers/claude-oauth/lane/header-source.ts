/** A fetch/undici `Headers` object, or anything else with the same two read methods. */
export interface HeaderLookup {
  get(name: string): string | null;
  forEach(callback: (value: string, name: string) => void): void;
}

/** A plain header record as node:http and the classifier carry them; names in any case. */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What every parser in this folder accepts: both shapes, read case-insensitively. */
export type HeaderSource = HeaderLookup | HeaderRecord;

function isLookup(source: HeaderSource): source is HeaderLookup {
  return typeof (source as Partial<HeaderLookup>).get === 'function';
}

/**
 * Flattens either shape to lower-cased names with one trimmed value each; blank values are
 * dropped so "present but empty" and "absent" can never be told apart downstream.
 */
export function toHeaderMap(source: HeaderSource): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  const add = (name: string, value: string | undefined): void => {
    const key = name.toLowerCase();
    const trimmed = value?.trim();
    if (trimmed && !out.has(key)) out.set(key, trimmed);
  };
  if (isLookup(source)) {
    source.forEach((value, name) => add(name, value));
    return out;
  }
  for (const [name, value] of Object.entries(source)) {
    // A repeated header keeps its first value: every header read here is single-valued.
    add(name, typeof value === 'string' ? value : value?.[0]);
  }
  return out;
}

/** Numeric header rule (§7.2): trimmed, non-empty, finite and ≥ 0, else absent. */
export function readNonNegative(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** `true` / `false` in any case; anything else is absent rather than a guess. */
export function readBoolean(raw: string | undefined): boolean | undefined {
  const text = raw?.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  return undefined;
}
