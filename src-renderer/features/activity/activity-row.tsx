import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { ConnectionMarks } from './activity-marks';
import { formatFailover, formatHeld, formatLatency, formatQueued, formatTime, formatTokens } from './format-activity';

const dash = <span className="muted">—</span>;

/**
 * One request: outcome as text and colour, timings, tokens and the failover path (PROD-16); a
 * click (or its Details button) opens every attempt (issue 13 §3).
 */
export function ActivityRow({
  entry: e,
  onOpen,
}: {
  entry: RequestLogEntry;
  onOpen: (entry: RequestLogEntry) => void;
}) {
  const ok = e.status < 400;
  const failover = formatFailover(e);
  const held = formatHeld(e);
  const queued = formatQueued(e);
  const sent = e.upstreamModel && e.upstreamModel !== e.model ? `Sent upstream as ${e.upstreamModel}` : undefined;
  return (
    <tr data-testid={`request-${e.id}`} className="activity-row" onClick={() => onOpen(e)}>
      <td className="num">{formatTime(e.ts)}</td>
      <td>{e.keyName ?? dash}</td>
      <td>
        <code title={sent}>{e.model ?? '—'}</code>
        {e.stream && <span className="tag">stream</span>}
        {e.agentId && (
          <span className="tag" title={`Sent by Claude Code subagent ${e.agentId}`}>
            subagent
          </span>
        )}
      </td>
      <td>
        {e.connection ?? <span className="muted">none</span>}
        <ConnectionMarks entry={e} />
      </td>
      <td>
        <span className={ok ? 'badge ok' : 'badge err'}>
          {e.status} {ok ? 'OK' : 'failed'}
        </span>
        {held && (
          <span className="tag" title="Waited for a short cooldown to end before it was sent again (CONC-7)">
            {held}
          </span>
        )}
        {queued && (
          <span className="tag" title="Waited in the connection's request queue for a free slot (maxConcurrent)">
            {queued}
          </span>
        )}
        {e.errorCode && <div className="small muted">{e.errorCode}</div>}
      </td>
      <td className="num">{formatLatency(e.latencyMs)}</td>
      <td className="num">{e.ttfbMs === null ? dash : formatLatency(e.ttfbMs)}</td>
      <td className="num">{formatTokens(e)}</td>
      <td className="small failover-cell">{failover || dash}</td>
      <td className="row-action">
        <button
          type="button"
          className="button small"
          aria-label={`Details of request ${e.id}`}
          onClick={(event) => {
            // The row's own click would open it a second time.
            event.stopPropagation();
            onOpen(e);
          }}
        >
          Details
        </button>
      </td>
    </tr>
  );
}
