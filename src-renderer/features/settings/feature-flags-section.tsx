import { useState } from 'react';
import type { Result } from '../../../src-shared/contract/errors';
import type { Settings, SettingsPatch } from '../../../src-shared/domain/settings';
import { FormField } from '../../components/form-field';

type Choice = 'env' | 'on' | 'off';
const choiceOf = (value: boolean | null | undefined): Choice =>
  value === true ? 'on' : value === false ? 'off' : 'env';
const pick = (v: string): Choice => (v === 'on' ? 'on' : v === 'off' ? 'off' : 'env');
const valueOf = (choice: Choice): boolean | null => (choice === 'on' ? true : choice === 'off' ? false : null);

/**
 * Runtime feature flags (ROUTE-5): each overrides its environment variable at once, no restart;
 * "From the environment" hands the decision back to the variable.
 */
export function FeatureFlagsSection({
  settings,
  save,
}: {
  settings: Settings | null | undefined;
  save: (patch: SettingsPatch) => Promise<Result<Settings>>;
}) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = choiceOf(settings?.emergencyFallback);
  const change = async (choice: Choice) => {
    setSaving(true);
    setError(null);
    const result = await save({ emergencyFallback: valueOf(choice) });
    setSaving(false);
    if (!result.ok) setError(result.error.message);
  };
  return (
    <section className="settings-card" aria-labelledby="section-featureFlags-title">
      <header className="settings-card-header">
        <h3 id="section-featureFlags-title">Feature flags</h3>
        <p className="muted small">
          Switches that take effect on the next request, overriding their environment variable.
        </p>
      </header>
      <FormField
        id="feature-emergency-fallback"
        label="Emergency fallback"
        hint="A combo target whose last failure was about money (402, a spent budget) is tried only after every other target, until it serves again. LEEWAY_EMERGENCY_FALLBACK sets the default."
        error={error ?? undefined}
      >
        {(aria) => (
          <select {...aria} value={current} disabled={saving} onChange={(e) => void change(pick(e.target.value))}>
            <option value="env">From the environment (LEEWAY_EMERGENCY_FALLBACK)</option>
            <option value="on">On</option>
            <option value="off">Off</option>
          </select>
        )}
      </FormField>
    </section>
  );
}
