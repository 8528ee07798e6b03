import { CopyButton } from '../../components/copy-button';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';
import { APP_INFO } from '../../resources/shared-data';
import { RequestsToday } from './requests-today';
import { StorageBanner } from './storage-banner';

/** Proxy URL, version, requests today and the pause switch: the state of Leeway at a glance. */
export function AppHeader() {
  const { data: info, error: loadError } = useResource(APP_INFO);
  const setPaused = useAction('app.setPaused');

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
          <button
            type="button"
            className="button"
            disabled={setPaused.pending}
            onClick={() => void setPaused.run({ paused: !info.paused })}
          >
            {info.paused ? 'Resume proxy' : 'Pause proxy'}
          </button>
          {setPaused.error && <span className="error-text">{setPaused.error.message}</span>}
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
