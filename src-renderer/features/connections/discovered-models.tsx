import { useCallback, useEffect, useState } from 'react';
import type { DiscoveredModelsView } from '../../../src-shared/contract/methods';
import { useApi } from '../../api/api-context';

const when = (ms: number): string => new Date(ms).toLocaleString();

/**
 * The connection editor's read-only "Discovered models" (issue 13 §5): what the upstream's own
 * models endpoint listed for a connection that serves any model. Clients see these ids in
 * `/v1/models`; they add names, they never restrict what the connection serves.
 */
export function DiscoveredModels({
  connection,
  namesOwnModels,
}: {
  connection: string | null;
  namesOwnModels: boolean;
}) {
  const api = useApi();
  const [view, setView] = useState<DiscoveredModelsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (): Promise<void> => {
    if (connection === null) return;
    const result = await api.call('models.discovered', { connection });
    if (result.ok) setView(result.value[0] ?? null);
    else setError(result.error.message);
  }, [api, connection]);

  useEffect(() => {
    void load();
  }, [load]);

  // "Ask now" is the Test action: it lists the models with the connection's key and keeps them.
  const askNow = async (): Promise<void> => {
    if (connection === null) return;
    setBusy(true);
    setError(null);
    const tested = await api.call('connections.test', { name: connection });
    if (!tested.ok) setError(tested.error.message);
    await load();
    setBusy(false);
  };

  let body;
  if (connection === null) {
    body = (
      <p className="field-hint">Once saved, a connection that serves any model lists here what its upstream offers.</p>
    );
  } else if (namesOwnModels) {
    body = <p className="field-hint">This connection names its own models, so its upstream is not asked.</p>;
  } else {
    const models = view?.models ?? [];
    body = (
      <>
        <p className="field-hint">
          From the upstream&apos;s own models list, asked on start, on Test and hourly. Clients see them in /v1/models;
          the connection still serves any model.
        </p>
        {models.length > 0 ? (
          <ul className="chips" aria-label="Discovered models">
            {models.map((m) => (
              <li key={m.id} className="chip" title={m.displayName ?? undefined}>
                {m.id}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted small">{view?.attemptedAt ? 'The upstream listed no models.' : 'Not asked yet.'}</p>
        )}
        {view?.lastError && (
          <p className="field-error" role="status">
            Last refresh failed: {view.lastError}
            {view.fetchedAt !== null && ` — showing the list from ${when(view.fetchedAt)}`}
          </p>
        )}
        {view?.fetchedAt && !view.lastError && <p className="muted small">Listed {when(view.fetchedAt)}</p>}
        <button type="button" className="button small" disabled={busy} onClick={() => void askNow()}>
          {busy ? 'Asking…' : 'Ask the upstream now'}
        </button>
      </>
    );
  }
  return (
    <fieldset className="fieldset" aria-label="Discovered models">
      <legend>Discovered models</legend>
      {body}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
