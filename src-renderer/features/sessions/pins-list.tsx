import type { PinClear, SessionPinView } from '../../../src-shared/domain/affinity';
import { ConfirmButton } from '../../components/confirm-button';
import { ACTIONS, Table } from '../../components/table';
import { EmptyState } from '../../components/empty-state';
import { groupPins, type PinGroup } from './pin-groups';
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
        {groupPins(pins).map((group) => (
          <PinGroupRows key={`${group.keyName}\u0000${group.session}`} group={group} now={now} onClear={onClear} />
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

/** A session's rows: its own pins, then (indented) each subagent with a pin of its own (issue 23 §3). */
function PinGroupRows({ group, now, onClear }: { group: PinGroup; now: number; onClear: (target: PinClear) => void }) {
  return (
    <>
      {group.own.length === 0 && (
        <tr className="pin-session">
          <td colSpan={COLUMNS.length}>
            <code className="session-id" title={group.session}>
              {group.session}
            </code>{' '}
            <span className="muted small">({group.keyName}; only its subagents hold pins)</span>
          </td>
        </tr>
      )}
      {[...group.own, ...group.agents].map((p) => (
        <PinRow key={`${p.agent ?? ''}\u0000${p.target}`} pin={p} now={now} onClear={onClear} />
      ))}
    </>
  );
}

function PinRow({ pin: p, now, onClear }: { pin: SessionPinView; now: number; onClear: (target: PinClear) => void }) {
  const agent = p.agent ?? null;
  const clear: PinClear = { target: 'pin', keyName: p.keyName, session: p.session, scope: p.target };
  if (agent !== null) clear.agent = agent;
  return (
    <tr className={agent === null ? undefined : 'pin-agent'}>
      <td>
        {agent === null ? (
          <code className="session-id" title={p.session}>
            {p.session}
          </code>
        ) : (
          <span title={`Subagent ${agent} of session ${p.session}`}>
            ↳ subagent <code className="session-id">{agent}</code>
          </span>
        )}
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
          aria-label={agent === null ? `Clear pin of session ${p.session}` : `Clear pin of subagent ${agent}`}
          onClick={() => onClear(clear)}
        >
          Clear
        </button>
      </td>
    </tr>
  );
}
