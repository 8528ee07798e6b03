import type { ConnectionCooldownRow } from '../../../src-shared/domain/cooldown';
import { useNow } from '../../components/use-now';
import { connectionStatus, formatCountdown, TERMINAL_ADVICE, TERMINAL_LABELS } from './connection-status';

/**
 * A connection's health at a glance: OK, cooling with a live mm:ss countdown, or a terminal
 * state with a Reset button (terminal states never heal by time, COOL-10).
 */
export function ConnectionStatusChip({
  name,
  row,
  loaded = true,
  onReset,
  resetting = false,
  skewMs = 0,
}: {
  name: string;
  row: ConnectionCooldownRow | undefined;
  loaded?: boolean;
  onReset?: () => void;
  resetting?: boolean;
  /** Core clock minus local clock, so the countdown runs on the core's time. */
  skewMs?: number;
}) {
  const ticking = row !== undefined && !row.terminal && row.rateLimitedUntil !== null;
  const now = useNow(ticking) + skewMs;
  const status = connectionStatus(row, now, loaded);
  switch (status.kind) {
    case 'unknown':
      return (
        <span className="badge" title="Status not loaded yet">
          …
        </span>
      );
    case 'ok':
      return <span className="badge ok">OK</span>;
    case 'cooling':
      return (
        <span className="badge warn" title="Skipped until the cooldown ends; clears by itself">
          Cooling{' '}
          <span className="countdown" role="timer">
            {formatCountdown(status.remainingMs)}
          </span>
        </span>
      );
    case 'terminal':
      return (
        <div className="status-terminal">
          <span className="badge err">{TERMINAL_LABELS[status.state]}</span>
          {onReset && (
            <button
              type="button"
              className="button small"
              disabled={resetting}
              onClick={onReset}
              aria-label={`Reset connection ${name}`}
            >
              Reset
            </button>
          )}
          <div className="small muted">{TERMINAL_ADVICE[status.state]}</div>
        </div>
      );
  }
}
