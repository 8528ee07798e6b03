import type { HeaderBag } from './classification';

/** Lower-cased header names to one string each, so lookups never depend on the sender's casing. */
export type HeaderMap = ReadonlyMap<string, string>;

/**
 * Flattens a header bag: names lower-cased, one value per name. Every header the classifier reads
 * is single-valued, and HTTP dates contain commas, so a repeated header keeps its first value.
 */
export function normalizeHeaders(headers: HeaderBag): HeaderMap {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    const key = name.toLowerCase();
    if (first !== undefined && !out.has(key)) out.set(key, first);
  }
  return out;
}

/** One header's value, trimmed; absent or blank is undefined. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const value = headers.get(name.toLowerCase())?.trim();
  return value ? value : undefined;
}
