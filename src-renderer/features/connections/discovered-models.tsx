import type { ResourceSpec } from '../../resources/resource';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';

const when = (ms: number): string => new Date(ms).toLocaleString();

/** What the upstream of one connection listed, as the core last asked it (on start, Test, hourly). */
export const discoveredModels = (connection: string): ResourceSpec<'models.discovered'> => ({
  method: 'models.discovered',
  input: { connection },
});

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
  const discovered = useResource(connection === null ? null : discoveredModels(connection));
  // "Ask now" is the Test action: it lists the models with the connection's key and keeps them.
  const test = useAction('connections.test');
  const view = discovered.data?.[0] ?? null;
  const error = test.error?.message ?? discovered.error?.message ?? null;
  const busy = test.pending;
  const askNow = async (): Promise<void> => {
    if (connection === null) return;
    // A refused test may still have recorded why the list is stale: read it either way.
    if (!(await test.run({ name: connection })).ok) discovered.reload();
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
