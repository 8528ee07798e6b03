import { useMemo, useState } from 'react';
import type { Result } from '../../../src-shared/contract/errors';
import { fieldsOf, type FieldSpec, type SectionSpec } from './field-spec';
import { inputIssuesOf } from '../../api/error-issues';
import { draftOf, formatValue, getPath, parseDraft, setPath, type Draft } from './field-values';

/** Sends a partial patch; answers the whole settings object in force afterwards. */
export type SaveSection = (patch: Record<string, unknown>) => Promise<Result<unknown>>;

/** The issue belongs to the field at its path, or under it (e.g. `modelLockout.errorCodes.2`). */
const fieldFor = (fields: FieldSpec[], path: string): FieldSpec | undefined =>
  fields.find((f) => path === f.path || path.startsWith(`${f.path}.`));

/** Explains values the core pulled into range, so a clamp is never silent. */
function adjustments(fields: FieldSpec[], sent: Record<string, unknown>, saved: unknown): string[] {
  return fields.flatMap((f) => {
    const want = getPath(sent, f.path);
    const got = getPath(saved, f.path);
    if (typeof want !== 'number' || typeof got !== 'number' || want === got) return [];
    return [`${f.label}: ${formatValue(f, want)} became ${formatValue(f, got)}`];
  });
}

/**
 * Edit state of one settings section: drafts of the fields a person touched, errors at the field
 * that caused them (from the core's `invalid_input` issues), and a note after saving.
 */
export function useSectionForm(spec: SectionSpec, values: unknown, save: SaveSection) {
  const fields = useMemo(() => fieldsOf(spec), [spec]);
  const [edits, setEdits] = useState<Record<string, Draft>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const original = (f: FieldSpec): Draft => draftOf(f, getPath(values, f.path));
  const draft = (f: FieldSpec): Draft => edits[f.path] ?? original(f);
  const changed = fields.filter((f) => f.path in edits && edits[f.path] !== original(f));

  const change = (path: string, value: Draft): void => {
    setEdits((e) => ({ ...e, [path]: value }));
    setErrors(({ [path]: _dropped, ...rest }) => rest);
    setNotice(null);
  };

  const discard = (): void => {
    setEdits({});
    setErrors({});
    setGeneral([]);
  };

  const submit = async (): Promise<void> => {
    const patch: Record<string, unknown> = {};
    const local: Record<string, string> = {};
    for (const f of changed) {
      const parsed = parseDraft(f, draft(f));
      if (parsed.ok) setPath(patch, f.path, parsed.value);
      else local[f.path] = parsed.message;
    }
    setGeneral([]);
    if (Object.keys(local).length > 0) return setErrors(local);
    setSaving(true);
    const result = await save(patch);
    setSaving(false);
    if (!result.ok) {
      const atField: Record<string, string> = {};
      const elsewhere: string[] = [];
      const issues = inputIssuesOf(result.error);
      for (const issue of issues) {
        const field = fieldFor(fields, issue.path);
        if (field) atField[field.path] = atField[field.path] ?? issue.message;
        else elsewhere.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
      }
      setErrors(atField);
      setGeneral(issues.length > 0 ? elsewhere : [result.error.message]);
      return;
    }
    const notes = adjustments(changed, patch, result.value);
    setEdits({});
    setErrors({});
    setNotice(notes.length > 0 ? `Saved. Adjusted to the allowed range — ${notes.join('; ')}.` : 'Saved.');
  };

  return { fields, draft, errors, general, notice, saving, dirty: changed.length > 0, change, discard, submit };
}
