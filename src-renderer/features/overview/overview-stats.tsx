import type { OverviewSeries } from '../../../src-shared/domain/overview';
import { formatCount, formatMs, formatRate } from './format-overview';

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="overview-stat" role="group" aria-label={label}>
      <span className="overview-stat-label muted small">{label}</span>
      <span className="overview-stat-value">{value}</span>
      {detail && <span className="muted small">{detail}</span>}
    </div>
  );
}

/** The range at a glance: requests, tokens, error and failover rates, prompt cache lost by moves (issue 24 §3), p50 / p95 latency. */
export function OverviewStats({ series }: { series: OverviewSeries }) {
  const s = series.summary;
  return (
    <div className="overview-stats" data-testid="overview-stats" data-requests={s.requests}>
      <Stat label="Requests" value={formatCount(s.requests)} />
      <Stat
        label="Tokens"
        value={formatCount(s.tokens)}
        detail={`${formatCount(s.inputTokens)} in · ${formatCount(s.outputTokens)} out`}
      />
      <Stat label="Error rate" value={formatRate(s.errorRate)} detail={`${formatCount(s.errors)} errors`} />
      <Stat
        label="Failover rate"
        value={formatRate(s.failoverRate)}
        detail={`${formatCount(s.failovers)} failed over`}
      />
      <Stat
        label="Prompt cache lost"
        value={formatCount(s.cacheLostTokens)}
        detail={`tokens left warm on another account · $${s.cacheLostUsd.toFixed(2)} to rebuild`}
      />
      <Stat label="Latency p50" value={formatMs(s.p50Ms)} />
      <Stat label="Latency p95" value={formatMs(s.p95Ms)} />
    </div>
  );
}
