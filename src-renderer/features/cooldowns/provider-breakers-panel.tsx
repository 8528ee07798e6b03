import type { BreakerStateKind, ProviderBreakerRow } from '../../../src-shared/domain/cooldown';
import { ActionButton } from '../../components/action-button';
import { useAction } from '../../resources/action';
import { formatCountdown } from '../connections/connection-status';
import { CoolPanel } from './cool-panel';

/** Text first, colour second: each breaker state has a word a person can act on. */
const STATES: Record<BreakerStateKind, { label: string; tone: string; help: string }> = {
  CLOSED: { label: 'Closed', tone: 'ok', help: 'Serving normally; failures are being counted.' },
  DEGRADED: { label: 'Degraded', tone: 'warn', help: 'Failing often; still serving, close to opening.' },
  OPEN: { label: 'Open', tone: 'err', help: 'Blocking every connection of this provider until the timer ends.' },
  HALF_OPEN: { label: 'Probing', tone: 'warn', help: 'Letting a trial request through to see if it recovered.' },
};

const PROFILES = { oauth: 'OAuth', apikey: 'API key', local: 'Local' } as const;

const COLUMNS = [
  'Provider',
  'Breaker',
  { label: 'Failures', className: 'num' },
  { label: 'Retry in', className: 'num' },
  'Window gate',
  '',
];

interface Props {
  rows: ProviderBreakerRow[];
  snapshotNow: number;
  now: number;
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
export function ProviderBreakersPanel({ rows, snapshotNow, now }: Props) {
  const clear = useAction('cooldowns.clear');
  return (
    <CoolPanel
      id="cool-providers"
      title="Providers"
      intro="A breaker or gate here skips every connection of that provider."
      empty={rows.length === 0 ? 'Every provider is healthy — no breaker has counted a failure.' : null}
      label="Provider breakers"
      columns={COLUMNS}
    >
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
                run={() => clear.run({ target: 'provider', provider: row.provider })}
              />
            </td>
          </tr>
        );
      })}
    </CoolPanel>
  );
}
