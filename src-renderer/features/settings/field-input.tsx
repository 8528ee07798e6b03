import type { FieldSpec } from './field-spec';
import { UNIT_LABEL } from './duration';
import { formatValue, parseDraft, rangeText, unitOf, type Draft } from './field-values';

interface FieldInputProps {
  field: FieldSpec;
  draft: Draft;
  error: string | undefined;
  onChange(draft: Draft): void;
  /** In a profile grid the label is the row header; the input still gets its full name for screen readers. */
  compact?: boolean;
}

/** Stable DOM ids from a settings path: "breaker.oauth.failureThreshold" -> "set-breaker-oauth-failureThreshold". */
export const fieldId = (path: string): string => `set-${path.replace(/\./g, '-')}`;

/** The readable form of what is typed: "= 2 min", "= 32 MiB", or what an empty field means. */
function liveHint(field: FieldSpec, draft: Draft): string | null {
  if (typeof draft === 'boolean' || (field.kind !== 'ms' && field.kind !== 'bytes' && field.kind !== 'int?'))
    return null;
  if (draft.trim() === '' && field.emptyMeans) return `empty: ${field.emptyMeans}`;
  const parsed = parseDraft(field, draft);
  if (!parsed.ok || typeof parsed.value !== 'number' || field.kind === 'int?') return null;
  return `= ${formatValue(field, parsed.value)}`;
}

/** One setting: the input, its live readable value and range, and the core's complaint when it refused it. */
export function FieldInput({ field, draft, error, onChange, compact = false }: FieldInputProps) {
  const id = fieldId(field.path);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hintId].filter(Boolean).join(' ');

  if (field.kind === 'bool') {
    return (
      <span className="field-bool">
        <input
          id={id}
          type="checkbox"
          checked={draft === true}
          aria-label={compact ? field.label : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        {!compact && <label htmlFor={id}>{field.label}</label>}
        {error && (
          <span id={errorId} className="field-error" role="alert">
            {error}
          </span>
        )}
      </span>
    );
  }

  const unit = field.kind === 'ms' ? UNIT_LABEL[unitOf(field)] : field.kind === 'bytes' ? 'bytes' : null;
  const range = rangeText(field);
  const hint = [liveHint(field, draft), range && `range ${range}`].filter(Boolean).join(' · ');
  return (
    <span className="field-control">
      <input
        id={id}
        type="text"
        inputMode={field.kind === 'codes' || field.kind === 'ms' ? 'text' : 'numeric'}
        className={field.kind === 'codes' ? 'input wide' : 'input num'}
        value={typeof draft === 'string' ? draft : ''}
        placeholder={field.kind === 'int?' ? 'auto' : undefined}
        aria-label={compact ? field.label : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      {unit && <span className="field-unit">{unit}</span>}
      <span id={hintId} className="field-hint">
        {hint}
      </span>
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
