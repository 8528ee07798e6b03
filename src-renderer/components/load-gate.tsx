import type { ReactNode } from 'react';
import type { Loadable } from '../stores/load-status';

/** Shows loading and error states of a store, and its content once ready. */
export function LoadGate({ state, onRetry, children }: { state: Loadable; onRetry: () => void; children: ReactNode }) {
  if (state.status === 'error') {
    return (
      <div className="notice error" role="alert">
        <p>Could not load this list: {state.error?.message ?? 'unknown error'}</p>
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  if (state.status !== 'ready') return <p className="muted">Loading…</p>;
  return <>{children}</>;
}
