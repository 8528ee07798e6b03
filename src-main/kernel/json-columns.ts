/**
 * Readers for JSON TEXT columns. The repositories wrote these values themselves, so a parse
 * failure is corruption; these still fall back to an empty value so one bad row cannot take the
 * whole list down with it.
 */

/** Parses a JSON array column; anything else reads as `[]`. */
export function parseJsonArray(text: string): unknown[] {
  const value = safeParse(text);
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/** Parses a JSON object column; arrays, primitives and bad JSON read as `{}`. */
export function parseJsonObject(text: string): Record<string, unknown> {
  const value = safeParse(text);
  return isRecord(value) ? value : {};
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
