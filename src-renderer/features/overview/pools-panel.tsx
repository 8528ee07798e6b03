import type { PoolUsageSummary, UsageSummary } from '../../../src-shared/domain/overview';
import { formatResetsIn } from './format-overview';

/** From this share of a dimension's limit a pool counts as near saturation, or once it runs strict. */
export const NEAR_SATURATION = 0.75;

interface PoolPeak {
  pool: PoolUsageSummary;
  /** The fullest dimension, 0..100; null when no dimension has a known limit. */
  percent: number | null;
  strict: boolean;
  label: string;
  resetsAt: number | null;
}

const WINDOW_WORDS: Readonly<Record<string, string>> = {
  '5h': '5 hours',
  hourly: 'hour',
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
};

function peakOf(pool: PoolUsageSummary): PoolPeak {
  let best: PoolPeak = { pool, percent: null, strict: false, label: '', resetsAt: null };
  for (const d of pool.dimensions) {
    const strict = best.strict || d.mode === 'strict';
    if (d.usedPercent !== null && (best.percent === null || d.usedPercent > best.percent)) {
      const limit = d.limit > 0 ? ` of ${d.limit}` : '';
      best = {
        pool,
        percent: d.usedPercent,
        strict,
        label: `${+d.used.toFixed(2)}${limit} ${d.unit} / ${WINDOW_WORDS[d.window] ?? d.window}`,
        resetsAt: d.resetsAt,
      };
    } else best = { ...best, strict };
  }
  return best;
}

const isNear = (p: PoolPeak): boolean => p.strict || (p.percent !== null && p.percent >= NEAR_SATURATION * 100);

/** Quota pools near saturation, fullest first; a line for the rest so an empty list still says something. */
export function PoolsPanel({ usage, now }: { usage: UsageSummary | null; now: number }) {
  const peaks = (usage?.pools ?? []).map(peakOf).sort((a, b) => (b.percent ?? -1) - (a.percent ?? -1));
  const near = peaks.filter(isNear);
  const fullest = peaks[0]?.percent ?? null;
  return (
    <section className="overview-panel" aria-labelledby="overview-pools-title">
      <h3 id="overview-pools-title">Quota pools near saturation</h3>
      {usage === null ? (
        <p className="muted small">Loading…</p>
      ) : peaks.length === 0 ? (
        <p className="muted small">No quota pools. Share one account among several keys in the Quota tab.</p>
      ) : near.length === 0 ? (
        <p className="muted small">
          No pool is near its limit ({peaks.length} pool{peaks.length === 1 ? '' : 's'}
          {fullest === null ? '' : `, the fullest at ${Math.round(fullest)} %`}).
        </p>
      ) : (
        <ul className="overview-list">
          {near.map((p) => (
            <li key={p.pool.name} data-testid={`overview-pool-${p.pool.name}`}>
              <span className="strong">{p.pool.name}</span> {p.strict && <span className="badge warn">strict</span>}
              {p.percent !== null && (
                <div
                  className="usage-track overview-pool-track"
                  role="meter"
                  aria-label={`${p.pool.name} usage`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(p.percent)}
                >
                  <div
                    className={`usage-fill ${p.percent >= 90 ? 'err' : 'warn'}`}
                    style={{ width: `${Math.min(100, p.percent)}%` }}
                  />
                </div>
              )}
              <span className="small">
                {p.percent === null ? '' : `${Math.round(p.percent)} % · `}
                {p.label}
                {p.resetsAt !== null && (
                  <span className="muted"> · window rolls over {formatResetsIn(p.resetsAt, now)}</span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
