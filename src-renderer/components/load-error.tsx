import type { AppError } from '../../src-shared/contract/errors';

/** "Could not load …" with the core's reason and a way to ask again. */
export function LoadError({ what, error, onRetry }: { what: string; error: AppError; onRetry: () => void }) {
  return (
    <div className="notice error" role="alert">
      <p>
        Could not load {what}: {error.message}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
