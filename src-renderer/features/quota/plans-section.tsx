import { useState, type FormEvent } from 'react';
import { quotaPlanInputSchema, type QuotaPlanView } from '../../../src-shared/domain/quota';
import { inputIssuesOf } from '../../api/error-issues';
import { ErrorNotice } from '../../components/error-notice';
import { FormField } from '../../components/form-field';
import { LoadError } from '../../components/load-error';
import { useFormErrors } from '../../components/use-form-errors';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';
import { DimensionRows } from './dimension-fields';
import { newDimension, type DimensionDraft, type PoolErrors } from './pool-form';
import { dimensionLabel } from './quota-format';
import { QUOTA_PLANS } from './quota-data';

const SOURCE_TEXT: Readonly<Record<QuotaPlanView['source'], string>> = {
  manual: 'manual override',
  catalog: 'from the built-in catalog',
  none: 'no plan — set one by hand',
};

/** The plan's dimensions as rows; a connection without a plan starts with one empty row to fill in. */
const draftsOf = (plan: QuotaPlanView): DimensionDraft[] =>
  plan.dimensions.length === 0
    ? [newDimension()]
    : plan.dimensions.map((d) => newDimension({ unit: d.unit, window: d.window, limit: String(d.limit) }));

function collect(errors: PoolErrors, path: string, message: string): void {
  const key = /^dimensions(\.\d+(\.\w+)?)?$/.test(path) ? path : 'form';
  errors[key] = errors[key] ? `${errors[key]}; ${message}` : message;
}

/** One connection's plan: what is in force and from where, its dimensions to edit, save and revert. */
function PlanEditor({
  plan,
  notice,
  onChanged,
  onEdited,
}: {
  plan: QuotaPlanView;
  notice: string | null;
  /** The saved or reverted plan is in the re-read list already; this says what happened. */
  onChanged: (notice: string) => void;
  onEdited: () => void;
}) {
  const setPlan = useAction('quota.setPlan');
  const removePlan = useAction('quota.removePlan');
  const [rows, setRows] = useState(() => draftsOf(plan));
  const { errors, setErrors, refuse, formRef } = useFormErrors<PoolErrors>({});
  const busy = setPlan.pending || removePlan.pending;

  const save = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const input = {
      connection: plan.connection,
      dimensions: rows.map((d) => ({
        unit: d.unit,
        window: d.window,
        limit: d.limit.trim() === '' ? NaN : Number(d.limit),
      })),
    };
    const parsed = quotaPlanInputSchema.safeParse(input);
    if (!parsed.success) {
      const next: PoolErrors = {};
      for (const issue of parsed.error.issues) collect(next, issue.path.join('.'), issue.message);
      return refuse(next);
    }
    const result = await setPlan.run(parsed.data);
    if (!result.ok) {
      const next: PoolErrors = {};
      for (const issue of inputIssuesOf(result.error)) collect(next, issue.path, issue.message);
      return refuse(Object.keys(next).length > 0 ? next : { form: result.error.message });
    }
    onChanged('Saved as a manual override.');
  };

  const revert = async (): Promise<void> => {
    const result = await removePlan.run({ connection: plan.connection });
    if (!result.ok) return setErrors({ form: result.error.message });
    onChanged(
      result.value.source === 'catalog'
        ? 'Override removed: the catalog plan applies again.'
        : 'Override removed: this connection has no plan now.',
    );
  };

  return (
    <form
      ref={formRef}
      className="quota-plan"
      noValidate
      onSubmit={(e) => void save(e)}
      aria-label={`Plan of ${plan.connection}`}
    >
      <p>
        <span className={plan.source === 'manual' ? 'badge warn' : plan.source === 'catalog' ? 'badge ok' : 'badge'}>
          {SOURCE_TEXT[plan.source]}
        </span>{' '}
        <span className="small">
          Catalog entry: {plan.catalogProvider ?? 'none'}
          {plan.catalogDimensions.length > 0 && ` (${plan.catalogDimensions.map(dimensionLabel).join(' · ')})`}
        </span>
      </p>
      <DimensionRows
        idPrefix="plan-dim"
        rows={rows}
        errors={errors}
        onChange={(next) => {
          setRows(next);
          setErrors({});
          onEdited();
        }}
      />
      <ErrorNotice message={errors.form} />
      <div className="dialog-actions">
        <span className="muted small" role="status">
          {notice ?? ''}
        </span>
        {plan.source === 'manual' && (
          <button type="button" className="button" disabled={busy} onClick={() => void revert()}>
            Remove override
          </button>
        )}
        <button type="submit" className="button primary" disabled={busy}>
          Save plan
        </button>
      </div>
    </form>
  );
}

/**
 * QUI-13..15: pick a connection, see its effective plan (catalog or manual override), edit the
 * dimensions and save them as an override (`quota.setPlan`), or remove the override to fall back.
 */
export function PlansSection() {
  const { data: plans, error, reload } = useResource(QUOTA_PLANS);
  const [picked, setPicked] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const current = plans?.find((p) => p.connection === picked) ?? plans?.[0] ?? null;

  return (
    <section className="quota-plans" aria-labelledby="quota-plans-title">
      <h3 id="quota-plans-title">Plans</h3>
      <p className="muted small">
        A plan is what an account allows per window. Pools without their own dimensions use their connection’s plan: a
        manual override here, else the built-in catalog entry matched by the connection’s base URL.
      </p>
      {error && <LoadError what="the plans" error={error} onRetry={reload} />}
      {plans === undefined ? (
        !error && <p className="muted">Loading…</p>
      ) : plans.length === 0 || current === null ? (
        <p className="muted">No connections yet.</p>
      ) : (
        <>
          <FormField id="plan-connection" label="Connection">
            {(aria) => (
              <select
                {...aria}
                value={current.connection}
                onChange={(e) => {
                  setPicked(e.target.value);
                  setNotice(null);
                }}
              >
                {plans.map((p) => (
                  <option key={p.connection} value={p.connection}>
                    {p.connection}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <PlanEditor
            // A new plan (saved, reverted, another connection) starts the form again from it.
            key={`${current.connection}:${JSON.stringify(current)}`}
            plan={current}
            notice={notice}
            onChanged={setNotice}
            onEdited={() => setNotice(null)}
          />
        </>
      )}
    </section>
  );
}
