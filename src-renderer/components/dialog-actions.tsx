/** A dialog form's last row: Cancel, and the submit button that says what it does and when it is busy. */
export function DialogActions({
  onCancel,
  busy,
  submitLabel,
  busyLabel = 'Saving…',
  disabled = false,
}: {
  onCancel: () => void;
  busy: boolean;
  /** Not ready to submit yet (a required field is empty). */
  disabled?: boolean;
  submitLabel: string;
  busyLabel?: string;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button primary" disabled={busy || disabled}>
        {busy ? busyLabel : submitLabel}
      </button>
    </div>
  );
}
