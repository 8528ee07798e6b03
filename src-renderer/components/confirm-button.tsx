import { useEffect, useRef, useState } from 'react';
import './confirm-button.css';

/**
 * A destructive button that asks once, in place: the first press turns it into
 * "question · Yes · Cancel", so it works from the keyboard and needs no browser dialog.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel = label,
  onConfirm,
  disabled = false,
}: {
  label: string;
  question: string;
  confirmLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  const start = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) yes.current?.focus();
    else if (wasAsking.current) start.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button
        ref={start}
        type="button"
        className="button small danger"
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span
      className="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(e) => e.key === 'Escape' && setAsking(false)}
    >
      <span className="small">{question}</span>{' '}
      <button
        ref={yes}
        type="button"
        className="button small danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>{' '}
      <button type="button" className="button small" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
