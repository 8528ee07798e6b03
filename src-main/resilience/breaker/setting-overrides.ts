import type { IntRange } from '../../../src-shared/domain/resilience-ranges';

export type { IntRange } from '../../../src-shared/domain/resilience-ranges';
export { overlayDefined } from '../../../src-shared/domain/overlay-defined';

/** Environment variables as the entry read them (kernel/env-vars.ts); engines take them as a parameter. */
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
