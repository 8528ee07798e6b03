import { useState } from 'react';
import { useStore } from 'zustand';
import { CopyButton } from '../../components/copy-button';
import { useStores } from '../../stores/stores-context';
import { RequestsToday } from './requests-today';
import { StorageBanner } from './storage-banner';

/** Proxy URL, version, requests today and the pause switch: the state of Leeway at a glance. */
export function AppHeader() {
  const { app } = useStores();
  const info = useStore(app, (s) => s.info);
  const loadError = useStore(app, (s) => s.error);
  const setPaused = useStore(app, (s) => s.setPaused);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggle = async (): Promise<void> => {
    if (!info) return;
    setBusy(true);
    const result = await setPaused(!info.paused);
    setBusy(false);
    setError(result.ok ? null : result.error.message);
  };

  return (
    <header className="app-header">
      <div className="brand">
        <h1>Leeway</h1>
        {info && <span className="muted">v{info.version}</span>}
      </div>
      {info ? (
        <div className="proxy-state">
          <code className="proxy-url">{info.proxyUrl}</code>
          <CopyButton text={info.proxyUrl} label="Copy URL" />
          <span className={info.paused ? 'badge warn' : 'badge ok'}>{info.paused ? 'Paused' : 'Running'}</span>
          <RequestsToday />
          <button type="button" className="button" disabled={busy} onClick={() => void toggle()}>
            {info.paused ? 'Resume proxy' : 'Pause proxy'}
          </button>
          {error && <span className="error-text">{error}</span>}
        </div>
      ) : loadError ? (
        <span className="error-text" role="alert">
          {loadError.code === 'unauthorized'
            ? 'Not signed in: open the dashboard link Leeway printed at start.'
            : loadError.message}
        </span>
      ) : (
        <span className="muted">Connecting to Leeway…</span>
      )}
      <StorageBanner />
    </header>
  );
}
