import { useMemo, useState } from 'react';
import { OVERVIEW_RANGES, type OverviewSeries } from '../../../src-shared/domain/overview';
import { LoadGate } from '../../components/load-gate';
import { SectionHeader } from '../../components/section-header';
import { useNow } from '../../components/use-now';
import { groupLines, latencyLines, rateLines, type GroupBy } from './chart-lines';
import { ClaudeUsagePanel } from './claude-usage-panel';
import { BUCKET_LABELS, formatCount, formatMs, RANGE_LABELS } from './format-overview';
import { OverviewStats } from './overview-stats';
import { PoolsPanel } from './pools-panel';
import { Segmented } from './segmented';
import { SeriesChart } from './series-chart';
import { useOverview } from './use-overview';
import './overview.css';

const RANGE_OPTIONS = OVERVIEW_RANGES.map((value) => ({ value, label: RANGE_LABELS[value] }));
const GROUP_OPTIONS = [
  { value: 'connection', label: 'By connection' },
  { value: 'key', label: 'By key' },
] as const;

function Charts({ series, by }: { series: OverviewSeries; by: GroupBy }) {
  const requests = useMemo(() => groupLines(series, by, 'requests'), [series, by]);
  const tokens = useMemo(() => groupLines(series, by, 'tokens'), [series, by]);
  const rates = useMemo(() => rateLines(series), [series]);
  const latency = useMemo(() => latencyLines(series), [series]);
  const per = BUCKET_LABELS[series.range];
  const none = `No requests in the ${RANGE_LABELS[series.range].toLowerCase()}.`;
  return (
    <div className="overview-charts">
      <SeriesChart
        id="requests"
        title="Requests"
        caption={`${per}, ${by === 'connection' ? 'by connection' : 'by key'}`}
        series={series}
        lines={requests}
        unit="requests"
        empty={none}
        formatTotal={formatCount}
      />
      <SeriesChart
        id="tokens"
        title="Tokens"
        caption={`input + output ${per}, ${by === 'connection' ? 'by connection' : 'by key'}`}
        series={series}
        lines={tokens}
        unit="tokens"
        empty="No tokens reported in this range."
        formatTotal={formatCount}
      />
      <SeriesChart
        id="rates"
        title="Errors and failovers"
        caption={`share of requests ${per}, in %`}
        series={series}
        lines={rates}
        unit="%"
        empty="No errors or failovers in this range."
        formatTotal={formatCount}
      />
      <SeriesChart
        id="latency"
        title="Latency"
        caption={`p50 and p95 ${per}, requests that reached an upstream`}
        series={series}
        lines={latency}
        unit="ms"
        empty={none}
        formatTotal={(n) => formatMs(n)}
      />
    </div>
  );
}

/**
 * The picture at a glance (issue 13 §4): traffic, tokens, error and failover rates and latency over
 * the last hour / day / week, Claude usage windows and the quota pools close to their limits. Live:
 * each finished request refreshes the charts (throttled, see use-overview).
 */
export function OverviewTab() {
  const { range, setRange, series: seriesView, usage } = useOverview();
  const [by, setBy] = useState<GroupBy>('connection');
  const now = useNow(true, 30_000);
  return (
    <section aria-labelledby="overview-title" className="overview">
      <SectionHeader id="overview-title" title="Overview">
        <Segmented label="Time range" options={RANGE_OPTIONS} value={range} onChange={setRange} />
      </SectionHeader>
      <LoadGate resource={seriesView}>
        {(series) => (
          <>
            <OverviewStats series={series} />
            {series.scan.truncated && (
              <p className="notice small" role="note">
                Counting the newest {formatCount(series.scan.maxRows)} requests only: older ones in this range are left
                out so the dashboard stays responsive.
              </p>
            )}
            <div className="overview-toolbar">
              <Segmented label="Split the charts" options={GROUP_OPTIONS} value={by} onChange={setBy} />
            </div>
            <Charts series={series} by={by} />
          </>
        )}
      </LoadGate>
      <div className="overview-panels">
        <ClaudeUsagePanel />
        <PoolsPanel usage={usage} now={now} />
      </div>
    </section>
  );
}
