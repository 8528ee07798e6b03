import { CopyButton } from '../../components/copy-button';
import { useResource } from '../../resources/resource-context';
import { APP_INFO } from '../../resources/shared-data';

/** The port a URL listens on, with the scheme's default when it names none. */
function portOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  } catch {
    return '—';
  }
}

/** Where Leeway listens and keeps its data; set at start (`--port`, `--data-dir`), so shown read-only. */
export function ProxyInfo() {
  const info = useResource(APP_INFO).data;
  return (
    <section className="settings-card" aria-labelledby="section-info-title">
      <header className="settings-card-header">
        <h3 id="section-info-title">Where Leeway runs</h3>
        <p className="muted small">
          Chosen at start with <code>--port</code> / <code>LEEWAY_PORT</code> and <code>--data-dir</code> /{' '}
          <code>LEEWAY_DATA_DIR</code>; restart Leeway to change them.
        </p>
      </header>
      {info ? (
        <dl className="info-list">
          <dt>Proxy URL</dt>
          <dd>
            <code>{info.proxyUrl}</code> <CopyButton text={info.proxyUrl} />
          </dd>
          <dt>Port</dt>
          <dd className="num">{portOf(info.proxyUrl)}</dd>
          <dt>Dashboard</dt>
          <dd>
            <code>{info.dashboardUrl}</code>
          </dd>
          <dt>Data directory</dt>
          <dd>
            <code>{info.dataDir}</code> <CopyButton text={info.dataDir} />
          </dd>
          <dt>Version</dt>
          <dd>
            {info.version} <span className="muted">({info.mode === 'electron' ? 'desktop app' : 'headless'})</span>
          </dd>
        </dl>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </section>
  );
}
