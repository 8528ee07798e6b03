/**
 * A settings card's footer: what happened (or that there are unsaved changes), Discard, and Save.
 * `saving` disables both buttons; nothing to discard or save disables them too.
 */
export function SaveBar({
  notice,
  dirty,
  saving = false,
  saveLabel,
  onDiscard,
}: {
  notice: string | null;
  dirty: boolean;
  saving?: boolean;
  saveLabel: string;
  onDiscard: () => void;
}) {
  return (
    <footer className="settings-card-footer">
      <span className="muted small" role="status">
        {notice ?? (dirty ? 'Unsaved changes' : '')}
      </span>
      <button type="button" className="button" disabled={!dirty || saving} onClick={onDiscard}>
        Discard
      </button>
      <button type="submit" className="button primary" disabled={!dirty || saving}>
        {saving ? 'Saving…' : saveLabel}
      </button>
    </footer>
  );
}
