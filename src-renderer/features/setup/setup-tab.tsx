import { useStore } from 'zustand';
import { CopyButton } from '../../components/copy-button';
import { useStores } from '../../stores/stores-context';
import { ClaudeCodeConfig } from './claude-code-config';
import { buildSetupSnippets } from './setup-snippets';

/** Claude Code set up in one click, and copy-paste setup for Claude Code, aider and codex with the real proxy URL and, when known, a real key. */
export function SetupTab() {
  const { app, keys } = useStores();
  const info = useStore(app, (s) => s.info);
  const created = useStore(keys, (s) => s.lastCreated);
  if (!info) return <p className="muted">Loading…</p>;
  const snippets = buildSetupSnippets(info.proxyUrl, created?.plainKey ?? null);
  return (
    <section aria-labelledby="setup-title">
      <h2 id="setup-title">Setup</h2>
      {created ? (
        <p>
          Snippets use the key <strong>{created.key.name}</strong> you just created.
        </p>
      ) : (
        <p className="notice">
          Keys are shown only once, when created. Create a key in the Keys tab to fill it in below, or replace the
          placeholder with a key you saved.
        </p>
      )}
      <ClaudeCodeConfig suggestedKey={created?.plainKey ?? null} />
      {snippets.map((s) => (
        <article key={s.id} className="snippet">
          <header>
            <h3>{s.title}</h3>
            <CopyButton text={s.code} />
          </header>
          <pre>
            <code>{s.code}</code>
          </pre>
          <p className="muted small">{s.note}</p>
        </article>
      ))}
    </section>
  );
}
