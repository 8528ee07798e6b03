import { lazy, Suspense } from 'react';
import type { QuotaDimensionUsage } from '../../../src-shared/domain/quota';
import { formatDuration, UNIT_LABELS } from './quota-format';

// The chart library comes in its own chunk, fetched the first time a chart has data to draw (QUI-7).
const UplotLine = lazy(() => import('./uplot-line').then((m) => ({ default: m.UplotLine })));

/**
 * QUI-7: the EMA burn rate of one dimension over time, and when the pool would run out at that
 * rate. With fewer than two samples there is no rate (QPIPE-8), so it says "No data".
 */
export function BurnRateChart({ dimension }: { dimension: QuotaDimensionUsage }) {
  const { burnRate, history, unit } = dimension;
  const label = `Burn rate of ${UNIT_LABELS[unit]} per second`;
  if (history.length < 2 || burnRate.samples < 2) {
    return (
      <div className="quota-chart-empty" role="note" aria-label={label}>
        No data — the burn rate needs at least two samples.
      </div>
    );
  }
  const rate = burnRate.perSecond;
  return (
    <figure className="quota-chart" aria-label={label}>
      <Suspense fallback={<div className="quota-chart-loading muted small">Loading chart…</div>}>
        <UplotLine
          label={`${UNIT_LABELS[unit]}/s`}
          xs={history.map((h) => h.at / 1000)}
          ys={history.map((h) => h.perSecond)}
        />
      </Suspense>
      <figcaption className="small">
        {`${+rate.toPrecision(3)} ${UNIT_LABELS[unit]}/s`}
        {burnRate.timeToExhaustionMs === null
          ? ' · not running out at this rate'
          : ` · runs out in about ${formatDuration(burnRate.timeToExhaustionMs)}`}
      </figcaption>
    </figure>
  );
}
