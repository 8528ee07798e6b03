import { QUOTA_POLICIES, QUOTA_UNITS, type QuotaPolicy, type QuotaUnit } from '../../../src-shared/domain/quota';
import { FormField } from '../../components/form-field';
import { newAllocation, type AllocationDraft, type PoolErrors } from './pool-form';
import { UNIT_LABELS } from './quota-format';

const POLICY_HINTS: Readonly<Record<QuotaPolicy, string>> = {
  hard: 'refused over its share once the pool is saturated',
  soft: 'deprioritised, never refused',
  burst: 'ignores shares until the pool is full',
};

/**
 * Allocation rows: which local key, its weight (percent of each limit; all 0 = equal split), its
 * policy and an optional absolute cap. Shared by the create and edit dialogs.
 */
export function AllocationFields({
  rows,
  keyNames,
  errors,
  onChange,
}: {
  rows: AllocationDraft[];
  keyNames: readonly string[];
  errors: PoolErrors;
  onChange: (rows: AllocationDraft[]) => void;
}) {
  const update = (row: number, patch: Partial<AllocationDraft>): void =>
    onChange(rows.map((r) => (r.row === row ? { ...r, ...patch } : r)));
  return (
    <fieldset className="fieldset">
      <legend>Allocations</legend>
      <p className="field-hint">
        Weight is a percent of each limit; weights may add up to 100 at most, and all 0 splits equally.
      </p>
      {errors.allocations && (
        <p className="field-error" role="alert">
          {errors.allocations}
        </p>
      )}
      {rows.map((a, i) => {
        const id = `alloc-${a.row}`;
        const at = (field: string): string | undefined => errors[`allocations.${i}.${field}`];
        return (
          <fieldset key={a.row} className="quota-row" aria-label={`Allocation ${i + 1}`}>
            <FormField id={`${id}-key`} label="Key" error={at('key') ?? errors[`allocations.${i}`]}>
              {(aria) => (
                <select {...aria} value={a.key} onChange={(e) => update(a.row, { key: e.target.value })}>
                  <option value="">Choose a key…</option>
                  {[...new Set([...keyNames, ...(a.key ? [a.key] : [])])].map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField id={`${id}-weight`} label="Weight %" error={at('weight')}>
              {(aria) => (
                <input
                  {...aria}
                  inputMode="decimal"
                  className="num"
                  value={a.weight}
                  placeholder="0"
                  onChange={(e) => update(a.row, { weight: e.target.value })}
                />
              )}
            </FormField>
            <FormField id={`${id}-policy`} label="Policy" hint={POLICY_HINTS[a.policy]} error={at('policy')}>
              {(aria) => (
                <select
                  {...aria}
                  value={a.policy}
                  onChange={(e) => update(a.row, { policy: e.target.value as QuotaPolicy })}
                >
                  {QUOTA_POLICIES.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField id={`${id}-cap`} label="Cap (optional)" error={at('capValue')}>
              {(aria) => (
                <input
                  {...aria}
                  inputMode="decimal"
                  className="num"
                  value={a.capValue}
                  onChange={(e) => update(a.row, { capValue: e.target.value })}
                />
              )}
            </FormField>
            <FormField id={`${id}-cap-unit`} label="Cap unit" error={at('capUnit')}>
              {(aria) => (
                <select
                  {...aria}
                  value={a.capUnit}
                  onChange={(e) => update(a.row, { capUnit: e.target.value as QuotaUnit | '' })}
                >
                  <option value="">no cap</option>
                  {QUOTA_UNITS.map((u) => (
                    <option key={u} value={u}>
                      {UNIT_LABELS[u]}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <button
              type="button"
              className="button small"
              aria-label={`Remove allocation ${i + 1}`}
              disabled={rows.length === 1}
              onClick={() => onChange(rows.filter((r) => r.row !== a.row))}
            >
              Remove
            </button>
          </fieldset>
        );
      })}
      <button type="button" className="button small" onClick={() => onChange([...rows, newAllocation()])}>
        Add key
      </button>
    </fieldset>
  );
}
