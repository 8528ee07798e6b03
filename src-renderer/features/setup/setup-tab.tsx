import { useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { useResource } from '../../resources/resource-context';
import { APP_INFO } from '../../resources/shared-data';
import { useCreatedKey } from '../keys/created-key';
import { AgentSetupList } from './agent-setup-list';
import { ClaudeCodeConfig } from './claude-code-config';
import { buildSetupSnippets } from './setup-snippets';

/**
 * Claude Code and the other coding agents (codex, opencode, Qwen Code, Gemini CLI, aider) set up in
 * one click, and copy-paste setup for Claude Code, aider and codex with the
 * real proxy URL and a real key: the one pasted into the key field, else the one just created.
 * The snippets show that key in full (issue 21 §17): they exist to be copied into a shell, a masked
 * key would make what is shown differ from what works, and the page shows a key created here in full
 * already; the field itself stays a password field, a place to type a secret.
 */
export function SetupTab() {
  const info = useResource(APP_INFO).data;
  const [created] = useCreatedKey();
  const [pasted, setPasted] = useState('');
  if (!info) return <p className="muted">Loading…</p>;
  // A key created after this mounted (Keys tab, same session) fills an empty field.
  const key = pasted.trim() !== '' ? pasted.trim() : (created?.plainKey ?? '');
  const snippets = buildSetupSnippets(info.proxyUrl, key === '' ? null : key);
  return (
    <section aria-labelledby="setup-title">
      <h2 id="setup-title">Setup</h2>
      {pasted.trim() !== '' ? (
        <p>Snippets use the key you pasted below.</p>
      ) : created ? (
        <p>
          Snippets use the key <strong>{created.key.name}</strong> you just created.
        </p>
      ) : (
        <p className="notice">
          Keys are shown only once, when created: paste one you saved into the Local key field below, or create one in
          the Keys tab, and the snippets use it.
        </p>
      )}
      <ClaudeCodeConfig value={pasted !== '' ? pasted : key} onChange={setPasted} />
      <AgentSetupList authToken={key} />
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
