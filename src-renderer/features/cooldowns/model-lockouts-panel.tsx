import type { ModelLockoutRow } from '../../../src-shared/domain/cooldown';
import { ActionButton } from '../../components/action-button';
import { useAction } from '../../resources/action';
import { formatCountdown } from '../connections/connection-status';
import { CoolPanel } from './cool-panel';
import { formatClock } from './cooldown-time';

const COLUMNS = [
  'Model',
  'Connection',
  'Reason',
  { label: 'Failures', className: 'num' },
  { label: 'Expires', className: 'num' },
  '',
];

interface Props {
  rows: ModelLockoutRow[];
  now: number;
}

/** LOCK-7: models benched on one connection while its other models keep serving, each re-enabled by hand. */
export function ModelLockoutsPanel({ rows, now }: Props) {
  const clear = useAction('cooldowns.clear');
  return (
    <CoolPanel
      id="cool-models"
      title="Model lockouts"
      intro="One model of one connection benched; its other models keep serving."
      empty={rows.length === 0 ? 'No model is locked out.' : null}
      label="Model lockouts"
      columns={COLUMNS}
    >
      {rows.map((row) => (
        <tr key={row.key} data-testid={`lockout-${row.key}`}>
          <td>
            <code>{row.model}</code>
            <div className="small muted">{row.provider}</div>
          </td>
          <td>{row.connection}</td>
          <td>
            <span className="badge warn">{row.reason}</span>
          </td>
          <td className="num">{row.failureCount}</td>
          <td className="num">
            <span className="countdown">{formatCountdown(row.expiresAt - now)}</span>
            <div className="small muted">at {formatClock(row.expiresAt)}</div>
          </td>
          <td className="actions">
            <ActionButton
              label="Re-enable"
              ariaLabel={`Re-enable ${row.model} on ${row.connection}`}
              run={() => clear.run({ target: 'model', key: row.key })}
            />
          </td>
        </tr>
      ))}
    </CoolPanel>
  );
}
