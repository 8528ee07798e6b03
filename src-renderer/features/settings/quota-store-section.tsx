import { useState, type FormEvent } from 'react';
import type { AppError, Result } from '../../../src-shared/contract/errors';
import {
  quotaStoreSettingsSchema,
  type QuotaStoreSettings,
  type QuotaStoreStatus,
} from '../../../src-shared/domain/quota';
import type { Settings, SettingsPatch } from '../../../src-shared/domain/settings';
import { inputIssuesOf } from '../../api/error-issues';
import { ErrorNotice } from '../../components/error-notice';
import { FormField } from '../../components/form-field';
import { SaveBar } from '../../components/save-bar';
import type { ResourceSpec } from '../../resources/resource';
import { useResource } from '../../resources/resource-context';

type Field = 'driver' | 'redisUrl' | 'saturationThreshold' | 'softDeprioritizeFactor' | 'retentionDays';
type Drafts = Record<Field, string>;
type Errors = Partial<Record<Field | 'form', string>>;
const FIELDS: readonly Field[] = [
  'driver',
  'redisUrl',
  'saturationThreshold',
  'softDeprioritizeFactor',
  'retentionDays',
];

const draftsOf = (stored: QuotaStoreSettings | undefined): Drafts => ({
  driver: stored?.driver ?? '',
  redisUrl: stored?.redisUrl ?? '',
  saturationThreshold: stored?.saturationThreshold?.toString() ?? '',
  softDeprioritizeFactor: stored?.softDeprioritizeFactor?.toString() ?? '',
  retentionDays: stored?.retentionDays?.toString() ?? '',
});

/** Empty means "not set here": the environment variable, then the default, applies (QENV-2). */
const numberOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));

/** The whole `quotaStore` object to send (a patch replaces it), or the fields the shared schema refuses. */
function build(drafts: Drafts): { ok: true; value: QuotaStoreSettings } | { ok: false; errors: Errors } {
  const value: QuotaStoreSettings = {
    driver: drafts.driver === 'sqlite' || drafts.driver === 'redis' ? drafts.driver : null,
    redisUrl: drafts.redisUrl.trim() === '' ? null : drafts.redisUrl.trim(),
    saturationThreshold: numberOrNull(drafts.saturationThreshold),
    softDeprioritizeFactor: numberOrNull(drafts.softDeprioritizeFactor),
    retentionDays: numberOrNull(drafts.retentionDays),
  };
  const errors: Errors = {};
  for (const f of ['saturationThreshold', 'softDeprioritizeFactor', 'retentionDays'] as const) {
    if (Number.isNaN(value[f])) errors[f] = 'Enter a number, or leave it empty';
  }
  const parsed = quotaStoreSettingsSchema.safeParse(value);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const head = issue.path[0];
      const field = FIELDS.find((f) => f === head) ?? 'form';
      errors[field] ??= issue.message;
    }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value };
}

function errorsFrom(error: AppError): Errors {
  const errors: Errors = {};
  for (const issue of inputIssuesOf(error)) {
    const field = FIELDS.find((f) => issue.path === `quotaStore.${f}` || issue.path.startsWith(`quotaStore.${f}.`));
    if (field) errors[field] ??= issue.message;
    else errors.form = errors.form ? `${errors.form}; ${issue.message}` : issue.message;
  }
  return Object.keys(errors).length > 0 ? errors : { form: error.message };
}

/** The counter store in force (`quota.storeStatus`); a settings save re-reads it (INVALIDATES). */
export const QUOTA_STORE_STATUS: ResourceSpec<'quota.storeStatus'> = { method: 'quota.storeStatus' };

function StatusLine({ status }: { status: QuotaStoreStatus }) {
  const from = { setting: 'this setting', env: 'QUOTA_STORE_DRIVER', default: 'the default' }[status.configuredFrom];
  return (
    <div className={status.fallbackReason ? 'notice error' : 'notice'} role="status" aria-label="Quota store in force">
      <p>
        In use: <strong>{status.active === 'redis' ? 'Redis' : 'SQLite'}</strong>
        {status.active === 'redis' && status.redisUrl && (
          <>
            {' '}
            at <code>{status.redisUrl}</code>
          </>
        )}{' '}
        — configured {status.configured} by {from}.
      </p>
      {status.fallbackReason && <p>Fell back to SQLite: {status.fallbackReason}</p>}
      <p className="small">
        In force: saturation threshold {status.saturationThreshold}, soft factor {status.softDeprioritizeFactor},
        retention {status.retentionDays} days.
      </p>
    </div>
  );
}

/**
 * `Settings › Quota store` (QDRV-3, QENV-2): the counter store's driver and Redis URL and the quota
 * thresholds; each empty field falls back to its QUOTA_* environment variable, then the default.
 * Shows what the core actually uses (`quota.storeStatus`), including why it fell back to SQLite.
 */
export function QuotaStoreSection({
  settings,
  save,
}: {
  settings: Settings | null;
  save: (patch: SettingsPatch) => Promise<Result<Settings>>;
}) {
  const statusView = useResource(QUOTA_STORE_STATUS);
  const status = statusView.data ?? null;
  const statusError = statusView.error?.message ?? null;
  const stored = settings?.quotaStore;
  // Only what the person typed is held here, so a change saved elsewhere (settings.changed) shows in untouched fields.
  const [edits, setEdits] = useState<Partial<Drafts>>({});
  const base = draftsOf(stored);
  const drafts: Drafts = { ...base, ...edits };
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const dirty = FIELDS.some((f) => drafts[f] !== base[f]);

  const change = (field: Field, value: string): void => {
    setEdits((d) => ({ ...d, [field]: value }));
    setErrors(({ [field]: _dropped, form: _form, ...rest }) => rest);
    setNotice(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const built = build(drafts);
    if (!built.ok) return setErrors(built.errors);
    setSaving(true);
    const result = await save({ quotaStore: built.value });
    setSaving(false);
    if (!result.ok) return setErrors(errorsFrom(result.error));
    setErrors({});
    setEdits({});
    setNotice('Saved.');
  };

  const inForce = (value: number | undefined): string => (value === undefined ? 'default' : `in force: ${value}`);
  const numberField = (field: Field, label: string, hint: string, placeholder: string) => (
    <FormField id={`quota-store-${field}`} label={label} hint={hint} error={errors[field]}>
      {(aria) => (
        <input
          {...aria}
          inputMode="decimal"
          className="num"
          placeholder={placeholder}
          value={drafts[field]}
          onChange={(e) => change(field, e.target.value)}
        />
      )}
    </FormField>
  );

  return (
    <form
      className="settings-card"
      aria-labelledby="section-quotaStore-title"
      noValidate
      onSubmit={(e) => void submit(e)}
    >
      <header className="settings-card-header">
        <h3 id="section-quotaStore-title">Quota store</h3>
        <p className="muted small">
          Where quota pools count consumption: SQLite in the data directory, or Redis so several Leeway instances count
          one pool together. An empty field uses its QUOTA_* environment variable, then the default.
        </p>
      </header>
      {status && <StatusLine status={status} />}
      {statusError && <p className="muted small">Could not read the store status: {statusError}</p>}
      <FormField id="quota-store-driver" label="Driver" error={errors.driver}>
        {(aria) => (
          <select {...aria} value={drafts.driver} onChange={(e) => change('driver', e.target.value)}>
            <option value="">From the environment (default SQLite)</option>
            <option value="sqlite">SQLite</option>
            <option value="redis">Redis</option>
          </select>
        )}
      </FormField>
      <FormField
        id="quota-store-redisUrl"
        label="Redis URL"
        hint="redis:// or rediss://; empty uses QUOTA_STORE_REDIS_URL. A failed connection falls back to SQLite."
        error={errors.redisUrl}
      >
        {(aria) => (
          <input
            {...aria}
            placeholder="redis://127.0.0.1:6379"
            value={drafts.redisUrl}
            onChange={(e) => change('redisUrl', e.target.value)}
          />
        )}
      </FormField>
      {numberField(
        'saturationThreshold',
        'Saturation threshold',
        'From 0 to 1: at this share of a limit used, keys are held to their fair share.',
        inForce(status?.saturationThreshold),
      )}
      {numberField(
        'softDeprioritizeFactor',
        'Soft deprioritise factor',
        'From 0 to 1: the score multiplier for a soft key over its share.',
        inForce(status?.softDeprioritizeFactor),
      )}
      {numberField(
        'retentionDays',
        'Retention (days)',
        'Consumption buckets older than this are deleted.',
        inForce(status?.retentionDays),
      )}
      <ErrorNotice message={errors.form} />
      <SaveBar
        notice={notice}
        dirty={dirty}
        saving={saving}
        saveLabel="Save quota store"
        onDiscard={() => {
          setEdits({});
          setErrors({});
        }}
      />
    </form>
  );
}
