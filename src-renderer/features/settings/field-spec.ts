import type { ProviderProfile } from '../../../src-shared/domain/resilience-ranges';
import type { DurationUnit } from './duration';

/**
 * How one setting is edited: `ms` is a duration stored in milliseconds and shown in its field's
 * `unit`, `bytes` a whole number with a readable hint, `int?` may be left empty (null: the core
 * derives it), `codes` is a comma-separated status list.
 */
export type FieldKind = 'int' | 'ms' | 'bytes' | 'int?' | 'bool' | 'codes';

export interface FieldSpec {
  /** Dotted path from the root of the patch, exactly as the core names it in `invalid_input` issues. */
  path: string;
  label: string;
  kind: FieldKind;
  help?: string;
  min?: number;
  max?: number;
  /** What an empty `int?` field means. */
  emptyMeans?: string;
  /** `ms` fields: the unit the value is shown and typed in (seconds unless set); stored as ms. */
  unit?: DurationUnit;
}

/** Settings that exist once per provider profile, shown as one row with a column per profile. */
export interface ProfileRowSpec {
  /** Path with `{profile}` where the profile goes, e.g. `breaker.{profile}.failureThreshold`. */
  pattern: string;
  label: string;
  kind: FieldKind;
  help?: string;
  min?: number;
  max?: number;
  emptyMeans?: string;
  unit?: DurationUnit;
}

export interface SectionSpec {
  id: string;
  title: string;
  /** One or two sentences: what the section does and when to touch it. */
  intro: string;
  /** What the core does with values outside the range: refuse them, or pull them in. */
  outOfRange: 'rejected' | 'clamped';
  fields: FieldSpec[];
  profileRows?: ProfileRowSpec[];
}

/** One column per provider profile, in the order the core's schemas list them. */
export const PROFILES = [
  { id: 'oauth', label: 'OAuth' },
  { id: 'apikey', label: 'API key' },
  { id: 'local', label: 'Local' },
] as const satisfies readonly { id: ProviderProfile; label: string }[];

/** Every field of a section, profile rows expanded into one field per profile. */
export function fieldsOf(section: SectionSpec): FieldSpec[] {
  const rows = (section.profileRows ?? []).flatMap((row) =>
    PROFILES.map((p) => ({ ...row, path: row.pattern.replace('{profile}', p.id), label: `${row.label} (${p.label})` })),
  );
  return [...section.fields, ...rows];
}
