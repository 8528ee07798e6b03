import type { AppError } from '../../../src-shared/contract/errors';
import type { ConnectionTestResult } from '../../../src-shared/domain/connection-test';

/** The outcome of "Test": reachability, latency or the upstream's refusal, and models to adopt. */
export type TestOutcome = { ok: true; result: ConnectionTestResult } | { ok: false; error: AppError };

/**
 * Shows what the Test button learned. When the upstream lists models the connection does not name,
 * offers to add them (warning that a connection with a model list serves only those).
 */
export function ConnectionTestResultView({
  outcome,
  currentModels,
  onAddModels,
  onDismiss,
  busy,
}: {
  outcome: TestOutcome;
  currentModels: string[];
  onAddModels: (models: string[]) => void;
  onDismiss: () => void;
  busy: boolean;
}) {
  if (!outcome.ok) {
    return (
      <div className="test-result error" role="status">
        <span>Test failed: {outcome.error.message}</span>
        <button type="button" className="button small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    );
  }
  const { result } = outcome;
  const missing = result.models.filter((m) => !currentModels.includes(m));
  return (
    <div className={result.ok ? 'test-result ok' : 'test-result error'} role="status">
      <span>
        {result.ok ? 'Connected' : 'Test failed'}
        {result.status !== null && ` · HTTP ${result.status}`} · {result.latencyMs} ms
        {result.message && ` · ${result.message}`}
      </span>
      {missing.length > 0 && (
        <div className="test-models">
          <span>
            The upstream lists {missing.length} model{missing.length === 1 ? '' : 's'} this connection does not name:{' '}
            <span className="muted">
              {missing.slice(0, 8).join(', ')}
              {missing.length > 8 ? ', …' : ''}
            </span>
          </span>
          {currentModels.length === 0 && (
            <span className="muted small">
              {' '}
              It now accepts any model; after adding, it serves only the listed ones.
            </span>
          )}
          <button type="button" className="button small" disabled={busy} onClick={() => onAddModels(missing)}>
            Add {missing.length} model{missing.length === 1 ? '' : 's'}
          </button>
        </div>
      )}
      <button type="button" className="button small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
