import { useState, type FormEvent } from 'react';
import type { AppError, Result } from '../../../src-shared/contract/errors';
import type { Settings, SettingsPatch } from '../../../src-shared/domain/settings';
import { inputIssuesOf } from '../../api/error-issues';
import { FormField } from '../../components/form-field';
import { SaveBar } from '../../components/save-bar';

/** Empty means off (null); otherwise an http(s) URL, checked here before the core checks it again. */
export function parseProbeUrl(text: string): { ok: true; value: string | null } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, message: 'Enter a full URL such as https://api.ipify.org, or leave it empty' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: 'Enter an http:// or https:// URL' };
  return { ok: true, value: trimmed };
}

function messageOf(error: AppError): string {
  const issue = inputIssuesOf(error).find((i) => i.path === 'egressIpProbeUrl');
  return issue?.message ?? error.message;
}

/**
 * `Settings › Egress IP probe` (EGRESS): the URL asked for each connection's public IP, through the
 * connection's own outbound proxy. Off (empty) by default: no request leaves for it, no IP is recorded.
 */
export function EgressProbeSection({
  settings,
  save,
}: {
  settings: Settings | null | undefined;
  save: (patch: SettingsPatch) => Promise<Result<Settings>>;
}) {
  const stored = settings?.egressIpProbeUrl ?? '';
  // Only what the person typed is held here, so a change saved elsewhere shows while untouched.
  const [edit, setEdit] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const draft = edit ?? stored;
  const dirty = draft !== stored;

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const parsed = parseProbeUrl(draft);
    if (!parsed.ok) return setError(parsed.message);
    setSaving(true);
    const result = await save({ egressIpProbeUrl: parsed.value });
    setSaving(false);
    if (!result.ok) return setError(messageOf(result.error));
    setError(null);
    setEdit(null);
    setNotice(parsed.value === null ? 'Saved. The probe is off.' : 'Saved.');
  };

  return (
    <form
      className="settings-card"
      aria-labelledby="section-egressProbe-title"
      noValidate
      onSubmit={(e) => void submit(e)}
    >
      <header className="settings-card-header">
        <h3 id="section-egressProbe-title">Egress IP probe</h3>
        <p className="muted small">
          Off by default. With a URL set, Leeway asks it for each connection’s public IP (through the connection’s own
          outbound proxy, at most every 5 minutes per connection) so a provider that limits by IP cools only the
          connections that share one.
        </p>
      </header>
      <FormField
        id="settings-egressIpProbeUrl"
        label="IP probe URL"
        hint="A URL that answers with the caller’s public IP, as plain text or JSON { “ip”: … }, e.g. https://api.ipify.org. Leave it empty to keep the probe off (nothing is sent, no IP is recorded)."
        error={error ?? undefined}
      >
        {(aria) => (
          <input
            {...aria}
            className="input wide"
            placeholder="off — e.g. https://api.ipify.org"
            value={draft}
            onChange={(e) => {
              setEdit(e.target.value);
              setError(null);
              setNotice(null);
            }}
          />
        )}
      </FormField>
      <SaveBar
        notice={notice}
        dirty={dirty}
        saving={saving}
        saveLabel="Save egress IP probe"
        onDiscard={() => {
          setEdit(null);
          setError(null);
        }}
      />
    </form>
  );
}
