import { CopyButton } from '../../components/copy-button';
import { useCreatedKey } from './created-key';

/** The one time a plain key is visible: Leeway stores only its hash. */
export function CreatedKeyNotice() {
  const [created, setCreated] = useCreatedKey();
  if (!created) return null;
  return (
    <div className="notice success" role="status">
      <p>
        Key <strong>{created.key.name}</strong> created. Copy it now: Leeway keeps only a hash and cannot show it again.
      </p>
      <div className="key-row">
        <code className="plain-key">{created.plainKey}</code>
        <CopyButton text={created.plainKey} />
        <button type="button" className="button small" onClick={() => setCreated(null)}>
          Done
        </button>
      </div>
      <p className="muted small">The Setup tab uses this key in its snippets until you reload the page.</p>
    </div>
  );
}
