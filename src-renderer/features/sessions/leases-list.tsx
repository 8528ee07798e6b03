import type { LeaseView } from '../../../src-shared/domain/lease';
import type { LeaseClear } from '../../../src-shared/domain/lease-clear';
import { ConfirmButton } from '../../components/confirm-button';
import { ACTIONS, Table } from '../../components/table';
import { timeLeft } from './time-left';

const COLUMNS = ['Connection', 'Key', 'Owner', 'Generation', 'Expires', ACTIONS];

/** Active exclusive leases: the connection a managed agent holds for itself, and until when. */
export function LeasesList({
  leases,
  now,
  onClear,
}: {
  leases: LeaseView[];
  now: number;
  onClear: (target: LeaseClear) => void;
}) {
  if (leases.length === 0) {
    return (
      <p className="muted">
        No active leases. A key with the <code>lease:exclusive</code> scope can lease a connection through{' '}
        <code>POST /api/v1/session-leases</code>.
      </p>
    );
  }
  return (
    <>
      <Table label="Exclusive leases" columns={COLUMNS}>
        {leases.map((l) => (
          <tr key={l.connection}>
            <td>{l.connection}</td>
            <td>{l.keyName}</td>
            <td>
              <code title="First characters of the owner id's SHA-256; the id itself is never stored">
                {l.ownerHashPrefix}…
              </code>
            </td>
            <td>{l.generation}</td>
            <td>{timeLeft(l.expiresAt, now)}</td>
            <td className="actions">
              <ConfirmButton
                label="End lease"
                question={`End the lease on ${l.connection}? Its owner's next request is refused.`}
                onConfirm={() => onClear({ target: 'connection', connection: l.connection })}
              />
            </td>
          </tr>
        ))}
      </Table>
      <div className="sessions-actions">
        <ConfirmButton
          label="End all leases"
          question="End every active lease?"
          onConfirm={() => onClear({ target: 'all' })}
        />
      </div>
    </>
  );
}
