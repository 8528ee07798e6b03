import type { RequestAttempt, RequestLogEntry } from '../../../src-shared/domain/request-log';
import { Dialog } from '../../components/dialog';
import { ConnectionMarks } from './activity-marks';
import { DecisionTimeline } from './decision-timeline';
import {
  detailAttempts,
  formatAttempt,
  formatCount,
  formatDateTime,
  formatHeld,
  formatQueued,
  formatLatency,
  formatTranslated,
} from './format-activity';

const none = <span className="muted">—</span>;

function Attempt({ attempt: a, index }: { attempt: RequestAttempt; index: number }) {
  const ok = a.status !== null && a.status < 400;
  const headers = Object.entries(a.headers ?? {});
  return (
    <li data-testid={`attempt-${index + 1}`} className="attempt">
      <div className="attempt-head">
        <strong>{a.connection}</strong>
        <span className={ok ? 'badge ok' : 'badge err'}>{formatAttempt(a) || 'no answer'}</span>
        {a.ms !== undefined && <span className="muted small">{formatLatency(a.ms)}</span>}
        {a.upstreamModel && (
          <span className="small">
            model <code>{a.upstreamModel}</code>
          </span>
        )}
      </div>
      {headers.length > 0 && (
        <dl className="attempt-headers" aria-label={`Headers of attempt ${index + 1}`}>
          {headers.map(([name, value]) => (
            <div key={name}>
              <dt>
                <code>{name}</code>
              </dt>
              <dd>
                <code>{value}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

/** Tokens in full, with the cache reads and writes when the upstream reported them. */
function tokensOf(e: RequestLogEntry): string | null {
  if (e.inputTokens === null && e.outputTokens === null) return null;
  const parts = [`${formatCount(e.inputTokens ?? 0)} in`, `${formatCount(e.outputTokens ?? 0)} out`];
  if (e.cacheReadTokens) parts.push(`${formatCount(e.cacheReadTokens)} cache read`);
  if (e.cacheWriteTokens) parts.push(`${formatCount(e.cacheWriteTokens)} cache write`);
  return parts.join(', ');
}

/**
 * One request in full (issue 13 §3): what was asked and sent, who answered, the marks, and every
 * attempt with its status, reason, timing and the headers that explained a failure.
 */
export function ActivityDetail({ entry: e, onClose }: { entry: RequestLogEntry; onClose: () => void }) {
  const attempts = detailAttempts(e);
  const ok = e.status < 400;
  const held = formatHeld(e);
  const queued = formatQueued(e);
  const translated = formatTranslated(e);
  const tokens = tokensOf(e);
  return (
    <Dialog title={`Request ${e.id}`} onClose={onClose} wide>
      <dl className="info-list activity-detail">
        <dt>Time</dt>
        <dd>{formatDateTime(e.ts)}</dd>
        <dt>Key</dt>
        <dd>{e.keyName ?? <span className="muted">none (refused before a key was verified)</span>}</dd>
        {e.agentId && (
          <>
            <dt>Agent</dt>
            <dd>
              Claude Code subagent <code>{e.agentId}</code>
              {e.parentAgentId ? (
                <span className="muted small">
                  {' '}
                  started by subagent <code>{e.parentAgentId}</code>
                </span>
              ) : (
                <span className="muted small"> started by the main agent</span>
              )}
            </dd>
          </>
        )}
        <dt>Endpoint</dt>
        <dd>
          <code>{e.endpoint}</code>
          {e.apiFormat && <span className="muted small"> {e.apiFormat} format</span>}
          {e.stream && <span className="tag">stream</span>}
        </dd>
        <dt>Model asked</dt>
        <dd>{e.model ? <code>{e.model}</code> : none}</dd>
        <dt>Model sent upstream</dt>
        <dd>{e.upstreamModel ? <code>{e.upstreamModel}</code> : none}</dd>
        <dt>Connection</dt>
        <dd>
          {e.connection ?? <span className="muted">none</span>}
          <ConnectionMarks entry={e} />
        </dd>
        <dt>Status</dt>
        <dd>
          <span className={ok ? 'badge ok' : 'badge err'}>
            {e.status} {ok ? 'OK' : 'failed'}
          </span>
          {e.errorCode && <code className="small"> {e.errorCode}</code>}
          {e.errorMessage && <div className="small">{e.errorMessage}</div>}
        </dd>
        <dt>Latency</dt>
        <dd>
          {formatLatency(e.latencyMs)}
          {e.ttfbMs !== null && <span className="muted small"> (first byte after {formatLatency(e.ttfbMs)})</span>}
        </dd>
        <dt>Tokens</dt>
        <dd>{tokens ?? none}</dd>
        {(held || queued || translated) && (
          <>
            <dt>Marks</dt>
            <dd>
              {held && <span className="tag">{held}</span>}
              {queued && <span className="tag">{queued}</span>}
              {translated && <span className="tag">translated {translated}</span>}
            </dd>
          </>
        )}
      </dl>
      <h4 className="attempts-title">{attempts.length === 1 ? '1 attempt' : `${attempts.length} attempts`}</h4>
      {attempts.length === 0 ? (
        <p className="muted">No upstream was tried: Leeway answered this request itself.</p>
      ) : (
        <ol className="attempts" aria-label="Attempts">
          {attempts.map((attempt, index) => (
            <Attempt key={index} attempt={attempt} index={index} />
          ))}
        </ol>
      )}
      <DecisionTimeline id={e.id} />
    </Dialog>
  );
}
