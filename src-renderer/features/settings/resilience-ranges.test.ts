import { describe, expect, it } from 'vitest';
import { PROVIDER_PROFILES } from '../../../src-shared/domain/resilience-ranges';
import {
  DEFAULT_RESILIENCE_SETTINGS,
  resiliencePatchSchema,
  resilienceSectionSchemas,
} from '../../../src-shared/domain/resilience-settings';
import { fieldsOf, PROFILES, type FieldSpec, type SectionSpec } from './field-spec';
import { getPath, setPath } from './field-values';
import { RESILIENCE_SECTIONS } from './resilience-fields';

type Ranged = FieldSpec & { min: number; max: number };
const ranged = (section: SectionSpec): Ranged[] =>
  fieldsOf(section).filter((f): f is Ranged => f.min !== undefined && f.max !== undefined);

/** The section's patch with every ranged field set to `pick(field)`, paths relative to the section. */
function sectionPatch(section: SectionSpec, pick: (f: Ranged) => number): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const f of ranged(section)) setPath(patch, f.path.slice(section.id.length + 1), pick(f));
  return patch;
}

const schemaOf = (id: string) => {
  if (!(id in resilienceSectionSchemas)) throw new Error(`no schema for section ${id}`);
  return resilienceSectionSchemas[id as keyof typeof resilienceSectionSchemas];
};
const relative = (section: SectionSpec, f: FieldSpec): string => f.path.slice(section.id.length + 1);

describe('Settings tab ranges are the core’s ranges', () => {
  it.each(RESILIENCE_SECTIONS.map((s) => [s.title, s] as const))(
    'PROD-6 LOCK-10: %s — every shown min and max is accepted as given by the core’s schema',
    (_title, section) => {
      for (const pick of [(f: Ranged) => f.min, (f: Ranged) => f.max]) {
        const parsed = schemaOf(section.id).safeParse(sectionPatch(section, pick));
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        for (const f of ranged(section)) expect(getPath(parsed.data, relative(section, f)), f.path).toBe(pick(f));
      }
    },
  );

  it.each(RESILIENCE_SECTIONS.map((s) => [s.title, s] as const))(
    'PROD-6 LOCK-10: %s — one past each shown bound is clamped or refused, as the section says',
    (_title, section) => {
      const bounds = [
        { past: (f: Ranged) => f.min - 1, bound: (f: Ranged) => f.min },
        { past: (f: Ranged) => f.max + 1, bound: (f: Ranged) => f.max },
      ];
      for (const { past, bound } of bounds) {
        const patch = sectionPatch(section, past);
        const parsed = schemaOf(section.id).safeParse(patch);
        const viaContract = resiliencePatchSchema.safeParse({ [section.id]: patch });
        if (section.outOfRange === 'clamped') {
          expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
          for (const f of ranged(section)) expect(getPath(parsed.data, relative(section, f)), f.path).toBe(bound(f));
          // The contract lets the number through so the core can pull it in.
          expect(viaContract.success).toBe(true);
        } else {
          const refused = (parsed.error?.issues ?? []).map((i) => i.path.join('.')).sort();
          expect(refused).toEqual(
            ranged(section)
              .map((f) => relative(section, f))
              .sort(),
          );
          const atContract = (viaContract.error?.issues ?? []).map((i) => i.path.join('.')).sort();
          expect(atContract).toEqual(
            ranged(section)
              .map((f) => f.path)
              .sort(),
          );
        }
      }
    },
  );

  it('PROD-6: every setting the core answers in these sections has a field, and every field is a setting', () => {
    const leaves = (node: unknown, path: string): string[] =>
      typeof node === 'object' && node !== null && !Array.isArray(node)
        ? Object.entries(node).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k))
        : [path];
    const settingPaths = RESILIENCE_SECTIONS.flatMap((s) => leaves(getPath(DEFAULT_RESILIENCE_SETTINGS, s.id), s.id));
    const fieldPaths = RESILIENCE_SECTIONS.flatMap((s) => fieldsOf(s).map((f) => f.path));
    expect(fieldPaths.sort()).toEqual(settingPaths.sort());
  });

  it('PROD-6: the profile columns are the core’s provider profiles, in its order', () => {
    expect(PROFILES.map((p) => p.id)).toEqual([...PROVIDER_PROFILES]);
  });
});
