import type { PinClear, SessionPinView } from '../../../src-shared/domain/affinity';
import { ConfirmButton } from '../../components/confirm-button';
import { ACTIONS, Table } from '../../components/table';
import { EmptyState } from '../../components/empty-state';
import { timeLeft } from './time-left';

const COLUMNS = ['Session', 'Key', 'Model or combo', 'Connection', 'Expires', ACTIONS];

/** Active session pins: which session of which key is kept on which connection, and until when. */
export function PinsList({
  pins,
  now,
  onClear,
}: {
  pins: SessionPinView[];
  now: number;
  onClear: (target: PinClear) => void;
}) {
  if (pins.length === 0) {
    return (
      <EmptyState title="No active session pins">
        <p>
          A client that sends a session id (Claude Code does) stays on the connection that first served it, so its
          prompt cache stays warm. Its pin appears here once a request is served.
        </p>
      </EmptyState>
    );
  }
  const connections = [...new Set(pins.map((p) => p.connection))];
  return (
    <>
      <Table label="Session pins" columns={COLUMNS}>
        {pins.map((p) => (
          <tr key={`${p.keyName}\u0000${p.session}\u0000${p.target}`}>
            <td>
              <code className="session-id" title={p.session}>
                {p.session}
              </code>
            </td>
            <td>{p.keyName}</td>
            <td>
              <code>{p.target}</code>
            </td>
            <td>{p.connection}</td>
            <td>{timeLeft(p.expiresAt, now)}</td>
            <td className="actions">
              <button
                type="button"
                className="button small"
                aria-label={`Clear pin of session ${p.session}`}
                onClick={() => onClear({ target: 'pin', keyName: p.keyName, session: p.session, scope: p.target })}
              >
                Clear
              </button>
            </td>
          </tr>
        ))}
      </Table>
      <div className="sessions-actions">
        {connections.map((c) => (
          <button
            key={c}
            type="button"
            className="button small"
            onClick={() => onClear({ target: 'connection', connection: c })}
          >
            Clear pins on {c}
          </button>
        ))}
        <ConfirmButton
          label="Clear all pins"
          question="Clear every session pin?"
          onConfirm={() => onClear({ target: 'all' })}
        />
      </div>
    </>
  );
}
