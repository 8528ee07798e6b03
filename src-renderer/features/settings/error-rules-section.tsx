import { useState, type FormEvent } from 'react';
import type { Result } from '../../../src-shared/contract/errors';
import { MAX_OPERATOR_RULES } from '../../../src-shared/domain/resilience-ranges';
import { inputIssuesOf } from '../../api/error-issues';
import { SaveBar } from '../../components/save-bar';

const EXAMPLE = `{
  "agentrouter": [
    { "status": 429, "match": "quota exceeded", "scope": "connection", "reason": "quota_exhausted", "cooldownMs": 3600000 }
  ]
}`;

interface Props {
  rules: unknown;
  save(patch: Record<string, unknown>): Promise<Result<unknown>>;
}

const pretty = (rules: unknown): string => JSON.stringify(rules ?? {}, null, 2);

/**
 * RESTATE-17: operator rules that turn an upstream's own error text into a cooldown of the right
 * scope. Edited as JSON; a service removed here is sent as an empty list, since the core merges by key.
 */
export function ErrorRulesSection({ rules, save }: Props) {
  const [text, setText] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const shown = text ?? pretty(rules);
  const dirty = text !== null && text !== pretty(rules);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(shown);
    } catch (err) {
      return setErrors([`Not valid JSON: ${err instanceof Error ? err.message : String(err)}`]);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return setErrors(['Expected an object keyed by service or provider id, each with a list of rules.']);
    }
    const removed = Object.keys(typeof rules === 'object' && rules !== null ? rules : {}).filter((k) => !(k in parsed));
    const patch = { ...Object.fromEntries(removed.map((k) => [k, []])), ...parsed };
    const result = await save({ providerErrorRules: patch });
    if (!result.ok) {
      const issues = inputIssuesOf(result.error);
      setErrors(issues.length > 0 ? issues.map((i) => `${i.path}: ${i.message}`) : [result.error.message]);
      return;
    }
    setText(null);
    setErrors([]);
    setNotice('Saved.');
  };

  return (
    <form className="settings-card" aria-labelledby="section-rules-title" onSubmit={(e) => void submit(e)} noValidate>
      <header className="settings-card-header">
        <h3 id="section-rules-title">Provider error rules</h3>
        <p className="muted small">
          Advanced. Match an upstream’s error text (case-insensitive substring, never a regex) for a status, and choose
          what cools down: the model, the connection or the whole provider. At most {MAX_OPERATOR_RULES} rules in total.
        </p>
      </header>
      <label className="field-label" htmlFor="set-providerErrorRules">
        Rules (JSON)
      </label>
      <textarea
        id="set-providerErrorRules"
        className="code-input"
        rows={Math.min(16, Math.max(4, shown.split('\n').length + 1))}
        spellCheck={false}
        value={shown}
        aria-invalid={errors.length > 0 ? true : undefined}
        aria-describedby={errors.length > 0 ? 'set-providerErrorRules-error' : 'set-providerErrorRules-hint'}
        onChange={(e) => {
          setText(e.target.value);
          setNotice(null);
        }}
      />
      {errors.length > 0 && (
        <div id="set-providerErrorRules-error" className="field-error" role="alert">
          {errors.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </div>
      )}
      <details className="field-help" id="set-providerErrorRules-hint">
        <summary>Example</summary>
        <pre>
          <code>{EXAMPLE}</code>
        </pre>
      </details>
      <SaveBar
        notice={notice}
        dirty={dirty}
        saveLabel="Save rules"
        onDiscard={() => {
          setText(null);
          setErrors([]);
        }}
      />
    </form>
  );
}
