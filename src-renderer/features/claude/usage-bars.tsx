import type { ClaudeUsage, ClaudeUsageWindow } from '../../../src-shared/domain/claude';
import { useNow } from '../../components/use-now';
import { formatHourMinute, formatPercent, formatResetIn, usageLevel } from './claude-format';
import './claude.css';

const WINDOWS = [
  { key: 'fiveHour', label: '5-hour' },
  { key: 'sevenDay', label: 'Weekly' },
] as const;

function UsageBar({ label, window, now }: { label: string; window: ClaudeUsageWindow; now: number }) {
  const resetsAt = window.resetsAtSeconds === undefined ? null : window.resetsAtSeconds * 1000;
  // Past its reset the window started afresh: the last figure seen no longer holds.
  if (resetsAt !== null && resetsAt <= now) {
    return (
      <div className="usage-bar">
        <span className="usage-label">{label}</span>
        <span className="small muted">reset at {formatHourMinute(resetsAt)}, no usage seen since</span>
      </div>
    );
  }
  const utilization = window.utilization;
  const percent = utilization === undefined ? null : Math.round(utilization * 100);
  return (
    <div className="usage-bar">
      <span className="usage-label">{label}</span>
      {utilization !== undefined && percent !== null ? (
        <>
          <div
            className="usage-track"
            role="meter"
            aria-label={`${label} usage`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <div
              className={`usage-fill ${usageLevel(utilization, window.status)}`}
              style={{ width: `${Math.min(100, Math.max(0, percent))}%` }}
            />
          </div>
          <span className="usage-value">{formatPercent(utilization)}</span>
        </>
      ) : (
        <span className="usage-value muted">—</span>
      )}
      {resetsAt !== null && (
        <span className="small muted" title={new Date(resetsAt).toLocaleString()}>
          resets in{' '}
          <span className="countdown" role="timer" aria-label={`${label} resets in`}>
            {formatResetIn(resetsAt - now)}
          </span>
        </span>
      )}
    </div>
  );
}

/**
 * The 5-hour and weekly windows of a Claude subscription, as the last response reported them,
 * each with its live reset countdown (on the core's clock: `skewMs` is core minus local).
 */
export function UsageBars({ usage, skewMs = 0 }: { usage: ClaudeUsage | null; skewMs?: number }) {
  const ticking = usage !== null && (usage.fiveHour?.resetsAtSeconds ?? usage.sevenDay?.resetsAtSeconds) !== undefined;
  const now = useNow(ticking) + skewMs;
  const shown = WINDOWS.filter((w) => usage?.[w.key] !== undefined);
  if (!usage || shown.length === 0) return <div className="small muted">No usage seen yet</div>;
  return (
    <div className="usage-bars" title={`As of ${formatHourMinute(usage.observedAt)}`}>
      {shown.map(({ key, label }) => {
        const window = usage[key];
        return window ? <UsageBar key={key} label={label} window={window} now={now} /> : null;
      })}
      {usage.overage?.inUse === true && <div className="small muted">Paid extra usage in use</div>}
    </div>
  );
}
