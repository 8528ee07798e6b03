import type { HeldAction, HeldRequestView } from '../../../src-shared/domain/held';
import { ActionButton } from '../../components/action-button';
import { ACTIONS, Table, type Column } from '../../components/table';
import { useNow } from '../../components/use-now';
import { useAction } from '../../resources/action';
import type { ResourceSpec } from '../../resources/resource';
import { useResource } from '../../resources/resource-context';

/** Issue 24 §2: the requests waiting now, carried whole by each `held.changed` (no re-read). */
export const HELD_REQUESTS: ResourceSpec<'held.list'> = {
  method: 'held.list',
  events: { 'held.changed': ({ held }) => held },
};

const COLUMNS: readonly Column[] = [
  'Key',
  'Model',
  'Session',
  'Waiting for',
  { label: 'For', className: 'num' },
  { label: 'Until', className: 'num' },
  ACTIONS,
];

const LABELS: Record<HeldAction, string> = {
  cancel: 'Cancel',
  'go-now': 'Use any connection now',
  'release-lease': 'Release the lease',
};

function seconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function HeldRow({ row, now }: { row: HeldRequestView; now: number }) {
  const act = useAction('held.act');
  return (
    <tr>
      <td>{row.keyName ?? '—'}</td>
      <td>
        {row.model}
        {row.stream && <span className="muted small"> · stream</span>}
      </td>
      <td className="small">{row.session ?? '—'}</td>
      <td>{row.what}</td>
      <td className="num">{seconds(now - row.since)}</td>
      <td className="num">{row.until === null ? '—' : `in ${seconds(row.until - now)}`}</td>
      <td>
        {row.actions.map((action) => (
          <ActionButton
            key={action}
            label={LABELS[action]}
            ariaLabel={`${LABELS[action]}: ${row.model} waiting for ${row.what}`}
            className={action === 'cancel' ? 'button small danger' : 'button small'}
            run={() => act.run({ id: row.id, action })}
          />
        ))}
      </td>
    </tr>
  );
}

/**
 * Requests held right now (a cooldown wait, a connection's queue, the Claude lane), live, with
 * what each waits for and until when, and what can be done about it. Hidden when nothing waits.
 */
export function HeldRequestsPanel() {
  const { data: held } = useResource(HELD_REQUESTS);
  const now = useNow(held !== undefined && held.length > 0);
  if (!held || held.length === 0) return null;
  return (
    <section aria-labelledby="held-title" className="held-requests">
      <h3 id="held-title">
        Waiting now <span className="muted small">({held.length})</span>
      </h3>
      <Table label="Requests waiting now" columns={COLUMNS}>
        {held.map((row) => (
          <HeldRow key={row.id} row={row} now={now} />
        ))}
      </Table>
    </section>
  );
}
