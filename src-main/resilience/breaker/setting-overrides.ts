/** Inclusive bounds a numeric setting must stay within. */
export interface IntRange {
  min: number;
  max: number;
}

/** Anything shaped like `process.env`; engines take it as a parameter instead of reading it. */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/**
 * Reads one integer override: unset, blank or non-numeric values are ignored (the default stays),
 * fractions are floored and out-of-range values are clamped, so a typo never disables a guard.
 */
export function readEnvInt(env: EnvSource, name: string, range: IntRange): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) return undefined;
  return Math.min(range.max, Math.max(range.min, Math.floor(value)));
}

/** Copies `base` and overlays every defined field of each layer in order; `undefined` never erases. */
export function overlayDefined<T extends object>(base: T, ...layers: Array<Partial<T> | undefined>): T {
  const result = { ...base };
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const key of Object.keys(layer) as Array<keyof T>) {
      const value = layer[key];
      if (value !== undefined) result[key] = value as T[keyof T];
    }
  }
  return result;
}
