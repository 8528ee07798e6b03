import { QUOTA_UNITS, QUOTA_WINDOWS, type QuotaUnit, type QuotaWindow } from '../../../src-shared/domain/quota';
import { FormField } from '../../components/form-field';
import { newDimension, type DimensionDraft, type PoolErrors } from './pool-form';
import { UNIT_LABELS, WINDOW_LABELS } from './quota-format';

/** Dimension rows (unit, window, limit; limit 0 = unknown), shared by the pool dialog and the plans editor. */
export function DimensionRows({
  rows,
  errors,
  onChange,
  idPrefix,
}: {
  rows: DimensionDraft[];
  errors: PoolErrors;
  onChange: (rows: DimensionDraft[]) => void;
  idPrefix: string;
}) {
  const update = (row: number, patch: Partial<DimensionDraft>): void =>
    onChange(rows.map((r) => (r.row === row ? { ...r, ...patch } : r)));
  return (
    <>
      {rows.map((d, i) => {
        const id = `${idPrefix}-${d.row}`;
        return (
          <fieldset key={d.row} className="quota-row" aria-label={`Dimension ${i + 1}`}>
            <FormField id={`${id}-unit`} label="Unit" error={errors[`dimensions.${i}.unit`]}>
              {(aria) => (
                <select {...aria} value={d.unit} onChange={(e) => update(d.row, { unit: e.target.value as QuotaUnit })}>
                  {QUOTA_UNITS.map((u) => (
                    <option key={u} value={u}>
                      {UNIT_LABELS[u]}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField id={`${id}-window`} label="Window" error={errors[`dimensions.${i}.window`]}>
              {(aria) => (
                <select
                  {...aria}
                  value={d.window}
                  onChange={(e) => update(d.row, { window: e.target.value as QuotaWindow })}
                >
                  {QUOTA_WINDOWS.map((w) => (
                    <option key={w} value={w}>
                      {WINDOW_LABELS[w]}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField
              id={`${id}-limit`}
              label="Limit"
              error={errors[`dimensions.${i}.limit`] ?? errors[`dimensions.${i}`]}
            >
              {(aria) => (
                <input
                  {...aria}
                  inputMode="decimal"
                  className="num"
                  value={d.limit}
                  onChange={(e) => update(d.row, { limit: e.target.value })}
                />
              )}
            </FormField>
            <button
              type="button"
              className="button small"
              aria-label={`Remove dimension ${i + 1}`}
              onClick={() => onChange(rows.filter((r) => r.row !== d.row))}
            >
              Remove
            </button>
          </fieldset>
        );
      })}
      {errors.dimensions && (
        <p className="field-error" role="alert">
          {errors.dimensions}
        </p>
      )}
      <button type="button" className="button small" onClick={() => onChange([...rows, newDimension()])}>
        Add dimension
      </button>
    </>
  );
}
