import type { ModelLockoutRow } from '../../../src-shared/domain/cooldown';
import type { CooldownsState } from '../../stores/cooldowns-store';
import { ActionButton } from './action-button';
import { formatCountdown } from '../connections/connection-status';
import { formatClock } from './cooldown-time';

interface Props {
  rows: ModelLockoutRow[];
  now: number;
  actions: Pick<CooldownsState, 'clear'>;
}

/** LOCK-7: models benched on one connection while its other models keep serving, each re-enabled by hand. */
export function ModelLockoutsPanel({ rows, now, actions }: Props) {
  return (
    <section className="cool-panel" aria-labelledby="cool-models-title">
      <header className="cool-panel-header">
        <h3 id="cool-models-title">Model lockouts</h3>
        <span className="muted small">One model of one connection benched; its other models keep serving.</span>
      </header>
      {rows.length === 0 ? (
        <p className="panel-empty">No model is locked out.</p>
      ) : (
        <table className="table" aria-label="Model lockouts">
          <thead>
            <tr>
              <th>Model</th>
              <th>Connection</th>
              <th>Reason</th>
              <th className="num">Failures</th>
              <th className="num">Expires</th>
              <th />
            </tr>
          </thead>
          <tbody>
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
                    run={() => actions.clear({ target: 'model', key: row.key })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
