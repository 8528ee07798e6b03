import { lazy, Suspense, useMemo } from 'react';
import type { OverviewSeries } from '../../../src-shared/domain/overview';
import type { ChartLine } from './chart-lines';

// uPlot comes in its own chunk, fetched the first time a chart has something to draw.
const UplotLines = lazy(() => import('./uplot-lines').then((m) => ({ default: m.UplotLines })));

const sumOf = (lines: readonly ChartLine[]): number =>
  lines.reduce((sum, l) => sum + l.values.reduce<number>((s, v) => s + (v ?? 0), 0), 0);

/**
 * One chart card: title, the lines over the range's buckets, and a legend with each line's figure.
 * `data-total` (every plotted value added up) lets tests see the chart's data change without pixels.
 */
export function SeriesChart({
  id,
  title,
  caption,
  series,
  lines,
  unit,
  empty,
  formatTotal,
}: {
  id: string;
  title: string;
  caption: string;
  series: OverviewSeries;
  lines: ChartLine[];
  unit: string;
  /** Shown instead of the chart when nothing in the range has a value. */
  empty: string;
  formatTotal: (total: number) => string;
}) {
  const xs = useMemo(() => series.buckets.map((b) => b / 1000), [series]);
  const total = sumOf(lines);
  const hasData = lines.some((l) => l.values.some((v) => v !== null && v > 0));
  return (
    <figure
      className="overview-chart"
      aria-labelledby={`${id}-title`}
      data-testid={`chart-${id}`}
      data-total={total}
      data-lines={lines.length}
      data-buckets={xs.length}
    >
      <figcaption className="overview-chart-head">
        <h3 id={`${id}-title`}>{title}</h3>
        <span className="muted small">{caption}</span>
      </figcaption>
      {hasData ? (
        <Suspense fallback={<div className="overview-chart-empty muted small">Loading chart…</div>}>
          <UplotLines xs={xs} lines={lines} label={`${title}, ${caption}`} unit={unit} />
        </Suspense>
      ) : (
        <div className="overview-chart-empty muted small">{empty}</div>
      )}
      {lines.length > 0 && (
        <ul className="overview-legend" aria-label={`${title} legend`}>
          {lines.map((l) => (
            <li key={l.label}>
              <span className="overview-swatch" style={{ background: l.color }} aria-hidden="true" />
              <span>{l.label}</span> <span className="num muted">{formatTotal(l.total)}</span>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
