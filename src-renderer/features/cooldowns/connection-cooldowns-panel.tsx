import type { ConnectionCooldownRow } from '../../../src-shared/domain/cooldown';
import { ActionButton } from '../../components/action-button';
import { useAction } from '../../resources/action';
import {
  formatCountdown,
  TERMINAL_ADVICE,
  TERMINAL_LABELS,
  type TerminalState,
} from '../connections/connection-status';
import { CoolPanel } from './cool-panel';
import { connectionDeadline, formatClock } from './cooldown-time';

/** The terminal state of a row the core marked terminal; an unexpected status still reads as one. */
const terminalOf = (row: ConnectionCooldownRow): TerminalState =>
  row.testStatus === 'active' || row.testStatus === 'unavailable' ? 'banned' : row.testStatus;

interface Props {
  rows: ConnectionCooldownRow[];
  snapshotNow: number;
  now: number;
}

const COLUMNS = [
  'Connection',
  'State',
  'Reason',
  { label: 'Backoff', className: 'num' },
  { label: 'Time left', className: 'num' },
  '',
];

/** Why the connection was benched, in the core's words: error type and code, then the upstream's message. */
function Reason({ row }: { row: ConnectionCooldownRow }) {
  const kind = [row.lastErrorType, row.errorCode].filter(Boolean).join(' · ');
  if (!kind && !row.lastError) return <span className="muted">no reason recorded</span>;
  return (
    <>
      {kind && <div className="reason-kind">{kind}</div>}
      {row.lastError && <div className="reason-text small muted">{row.lastError}</div>}
    </>
  );
}

/** COOL-2 / COOL-7: each benched connection with its reason, a live countdown or its terminal state, and the fix. */
export function ConnectionCooldownsPanel({ rows, snapshotNow, now }: Props) {
  const clear = useAction('cooldowns.clear');
  const reset = useAction('connections.reset');
  return (
    <CoolPanel
      id="cool-connections"
      title="Connections"
      intro="One key or account benched; the provider's other connections keep serving."
      empty={rows.length === 0 ? 'Nothing is cooling down — every connection is ready.' : null}
      label="Connection cooldowns"
      columns={COLUMNS}
    >
      {rows.map((row) => {
        const deadline = connectionDeadline(row, snapshotNow);
        return (
          <tr key={row.id} data-testid={`connection-${row.name}`}>
            <td>
              <div className="strong">{row.name}</div>
              <div className="small muted">{row.provider}</div>
            </td>
            <td>
              {row.terminal ? (
                <>
                  <span className="badge err">{TERMINAL_LABELS[terminalOf(row)]}</span>
                  <div className="small muted state-advice">{TERMINAL_ADVICE[terminalOf(row)]}</div>
                </>
              ) : (
                <span className="badge warn">Cooling down</span>
              )}
            </td>
            <td className="reason">
              <Reason row={row} />
            </td>
            <td className="num">{row.terminal ? '—' : `level ${row.backoffLevel}`}</td>
            <td className="num">
              {row.terminal || deadline === null ? (
                <span className="muted">until reset</span>
              ) : (
                <span className="countdown" title={`Ready at ${formatClock(deadline)}`}>
                  {formatCountdown(deadline - now)}
                </span>
              )}
            </td>
            <td className="actions">
              {row.terminal ? (
                <ActionButton
                  label="Reset connection"
                  ariaLabel={`Reset connection ${row.name}`}
                  className="button small danger"
                  run={() => reset.run({ name: row.name })}
                />
              ) : (
                <ActionButton
                  label="Clear"
                  ariaLabel={`Clear cooldown of ${row.name}`}
                  run={() => clear.run({ target: 'connection', connection: row.name })}
                />
              )}
            </td>
          </tr>
        );
      })}
    </CoolPanel>
  );
}
