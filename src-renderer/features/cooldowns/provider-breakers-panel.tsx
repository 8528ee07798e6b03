import type { BreakerStateKind, ProviderBreakerRow } from '../../../src-shared/domain/cooldown';
import type { CooldownsState } from '../../stores/cooldowns-store';
import { ActionButton } from './action-button';
import { formatCountdown } from '../connections/connection-status';

/** Text first, colour second: each breaker state has a word a person can act on. */
const STATES: Record<BreakerStateKind, { label: string; tone: string; help: string }> = {
  CLOSED: { label: 'Closed', tone: 'ok', help: 'Serving normally; failures are being counted.' },
  DEGRADED: { label: 'Degraded', tone: 'warn', help: 'Failing often; still serving, close to opening.' },
  OPEN: { label: 'Open', tone: 'err', help: 'Blocking every connection of this provider until the timer ends.' },
  HALF_OPEN: { label: 'Probing', tone: 'warn', help: 'Letting a trial request through to see if it recovered.' },
};

const PROFILES = { oauth: 'OAuth', apikey: 'API key', local: 'Local' } as const;

interface Props {
  rows: ProviderBreakerRow[];
  snapshotNow: number;
  now: number;
  actions: Pick<CooldownsState, 'clear'>;
}

/** Counts down a retry-after measured from the snapshot; a dash when there is nothing to wait for. */
function Wait({ ms, snapshotNow, now }: { ms: number | null; snapshotNow: number; now: number }) {
  if (ms === null || snapshotNow + ms <= now) return <span className="muted">—</span>;
  return <span className="countdown">{formatCountdown(snapshotNow + ms - now)}</span>;
}

function Gate({ row, snapshotNow, now }: Pick<Props, 'snapshotNow' | 'now'> & { row: ProviderBreakerRow }) {
  if (!row.gate) return <span className="muted">off</span>;
  const failures = `${row.gate.failuresInWindow} failure${row.gate.failuresInWindow === 1 ? '' : 's'} in window`;
  if (!row.gate.cooling) return <span className="small">{failures}</span>;
  return (
    <>
      <span className="badge err">Cooling</span> <Wait ms={row.gate.retryAfterMs} snapshotNow={snapshotNow} now={now} />
      <div className="small muted">{failures}</div>
    </>
  );
}

/** BRK / PROV-9: provider-wide breakers and window gates, which skip every connection of a provider at once. */
export function ProviderBreakersPanel({ rows, snapshotNow, now, actions }: Props) {
  return (
    <section className="cool-panel" aria-labelledby="cool-providers-title">
      <header className="cool-panel-header">
        <h3 id="cool-providers-title">Providers</h3>
        <span className="muted small">A breaker or gate here skips every connection of that provider.</span>
      </header>
      {rows.length === 0 ? (
        <p className="panel-empty">Every provider is healthy — no breaker has counted a failure.</p>
      ) : (
        <table className="table" aria-label="Provider breakers">
          <thead>
            <tr>
              <th>Provider</th>
              <th>Breaker</th>
              <th className="num">Failures</th>
              <th className="num">Retry in</th>
              <th>Window gate</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const state = STATES[row.state];
              return (
                <tr key={row.provider} data-testid={`provider-${row.provider}`}>
                  <td>
                    <div className="strong">{row.kind}</div>
                    <div className="small muted">
                      {row.origin || row.provider} · {PROFILES[row.profile]}
                    </div>
                  </td>
                  <td>
                    <span className={`badge ${state.tone}`} title={state.help}>
                      {state.label}
                    </span>
                  </td>
                  <td className="num">{row.failureCount}</td>
                  <td className="num">
                    <Wait ms={row.retryAfterMs} snapshotNow={snapshotNow} now={now} />
                  </td>
                  <td>
                    <Gate row={row} snapshotNow={snapshotNow} now={now} />
                  </td>
                  <td className="actions">
                    <ActionButton
                      label="Reset"
                      ariaLabel={`Reset provider ${row.provider}`}
                      run={() => actions.clear({ target: 'provider', provider: row.provider })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
