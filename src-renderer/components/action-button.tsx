import { useState } from 'react';
import type { Result } from '../../src-shared/contract/errors';

interface ActionButtonProps {
  label: string;
  /** What a screen reader hears, e.g. "Clear cooldown of main"; the visible label stays short. */
  ariaLabel?: string;
  className?: string;
  disabled?: boolean;
  run: () => Promise<Result<unknown>>;
}

/** A row action: disabled while the core answers, the refusal shown beside it. */
export function ActionButton({
  label,
  ariaLabel,
  className = 'button small',
  disabled = false,
  run,
}: ActionButtonProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onClick = async (): Promise<void> => {
    setBusy(true);
    const result = await run();
    setBusy(false);
    setError(result.ok ? null : result.error.message);
  };
  return (
    <span className="action">
      <button
        type="button"
        className={className}
        aria-label={ariaLabel}
        disabled={busy || disabled}
        onClick={() => void onClick()}
      >
        {label}
      </button>
      {error && (
        <span className="error-text small" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
