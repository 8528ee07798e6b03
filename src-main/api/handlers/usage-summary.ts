import type { ClaudeConnectionStatus, ClaudeUsage, ClaudeUsageWindow } from '../../../src-shared/domain/claude';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import type {
  ConnectionUsageSummary,
  PoolUsageSummary,
  UsageSummary,
  UsageWindowSummary,
} from '../../../src-shared/domain/overview';
import type { QuotaPoolUsage, QuotaPoolView } from '../../../src-shared/domain/quota';

const percent = (fraction: number): number => Math.round(fraction * 1000) / 10;

/** A Claude window as used/limit: past its reset the last figure no longer holds, so `used` is unknown then. */
function windowsOf(usage: ClaudeUsage | null, now: number): UsageWindowSummary[] {
  if (usage === null) return [];
  // The headers name every window; `fiveHour` / `sevenDay` are the same two under fixed names.
  const named: Record<string, ClaudeUsageWindow> = {
    ...(usage.fiveHour ? { '5h': usage.fiveHour } : {}),
    ...(usage.sevenDay ? { '7d': usage.sevenDay } : {}),
    ...usage.windows,
  };
  return Object.entries(named)
    .map(([window, w]): UsageWindowSummary => {
      const resetsAt = w.resetsAtSeconds === undefined ? null : w.resetsAtSeconds * 1000;
      const stale = resetsAt !== null && resetsAt <= now;
      return {
        window,
        unit: 'percent',
        used: w.utilization === undefined || stale ? null : percent(w.utilization),
        limit: 100,
        resetsAt,
        status: w.status ?? null,
      };
    })
    .sort((a, b) => a.window.localeCompare(b.window));
}

function connectionSummary(
  c: Pick<ConnectionView, 'id' | 'name' | 'kind' | 'enabled'>,
  status: ClaudeConnectionStatus | undefined,
  now: number,
): ConnectionUsageSummary {
  const usage = status?.usage ?? null;
  return {
    name: c.name,
    kind: c.kind,
    enabled: c.enabled,
    observedAt: usage?.observedAt ?? null,
    status: usage?.status ?? null,
    windows: windowsOf(usage, now),
  };
}

/** One pool's dimensions in used/limit form; `resetsAt` is the next bucket boundary of each sliding window. */
function poolSummary(pool: QuotaPoolView, usage: QuotaPoolUsage | null, now: number): PoolUsageSummary {
  const dimensions = (usage?.dimensions ?? []).map((d) => ({
    unit: d.unit,
    window: d.window,
    used: Math.round(d.consumedTotal * 1000) / 1000,
    limit: d.limit,
    usedPercent: d.limit > 0 || d.saturationSource === 'provider' ? percent(d.globalUsedPercent) : null,
    resetsAt: (Math.floor(now / d.windowMs) + 1) * d.windowMs,
    mode: d.mode,
  }));
  return {
    name: pool.name,
    connections: [...pool.connections],
    saturationThreshold: usage?.saturationThreshold ?? pool.saturationThreshold ?? 0,
    dimensions,
  };
}

/**
 * The usage summary (issue 13 §8): every connection, with its Claude usage windows where a
 * response reported them, and every quota pool per dimension. Pure: the caller read the engines.
 */
export function buildUsageSummary(input: {
  connections: readonly Pick<ConnectionView, 'id' | 'name' | 'kind' | 'enabled'>[];
  claude: readonly ClaudeConnectionStatus[];
  pools: readonly { pool: QuotaPoolView; usage: QuotaPoolUsage | null }[];
  now: number;
}): UsageSummary {
  const byId = new Map(input.claude.map((s) => [s.connectionId, s]));
  return {
    at: input.now,
    connections: input.connections.map((c) => connectionSummary(c, byId.get(c.id), input.now)),
    pools: input.pools.map(({ pool, usage }) => poolSummary(pool, usage, input.now)),
  };
}
