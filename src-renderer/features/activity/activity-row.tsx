import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { servedViaTag } from '../claude/claude-format';
import { formatFailover, formatHeld, formatLatency, formatTime, formatTokens } from './format-activity';

const dash = <span className="muted">—</span>;

const PIN_TITLE = {
  kept: 'The session pin chose this connection',
  moved: 'The pinned connection could not serve; the session moved here',
  new: 'The session’s first request here: it is pinned to this connection now',
} as const;

/** One proxied request: outcome as text and colour, timings, tokens and the failover path (PROD-16). */
export function ActivityRow({ entry: e }: { entry: RequestLogEntry }) {
  const ok = e.status < 400;
  const failover = formatFailover(e);
  const via = servedViaTag(e.servedVia);
  const held = formatHeld(e);
  return (
    <tr data-testid={`request-${e.id}`}>
      <td className="num">{formatTime(e.ts)}</td>
      <td>{e.keyName ?? dash}</td>
      <td>
        <code>{e.model ?? '—'}</code>
        {e.stream && <span className="tag">stream</span>}
      </td>
      <td>
        {e.connection ?? <span className="muted">none</span>}
        {e.sessionPin && (
          <span className="tag" title={PIN_TITLE[e.sessionPin]}>
            {e.sessionPin === 'kept' ? 'pinned' : e.sessionPin === 'moved' ? 'pin moved' : 'pin new'}
          </span>
        )}
        {via && (
          <span className="tag" title={via.title}>
            {via.label}
          </span>
        )}
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
        {e.errorCode && <div className="small muted">{e.errorCode}</div>}
      </td>
      <td className="num">{formatLatency(e.latencyMs)}</td>
      <td className="num">{e.ttfbMs === null ? dash : formatLatency(e.ttfbMs)}</td>
      <td className="num">{formatTokens(e)}</td>
      <td className="small">{failover || dash}</td>
    </tr>
  );
}
