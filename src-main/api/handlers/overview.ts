import { ok } from '../../../src-shared/contract/errors';
import type { OverviewRange, OverviewSeries } from '../../../src-shared/domain/overview';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';
import { buildUsageSummary } from './usage-summary';

type OverviewHandlers = Pick<Handlers, 'overview.series' | 'overview.usage'>;

export type OverviewDeps = Pick<
  HandlerDeps,
  'series' | 'requestLog' | 'connections' | 'quotaPools' | 'quota' | 'claudeStatus' | 'now'
>;

/**
 * How long an answer is reused: every open window (and the tray's dashboard) asks after each burst of
 * traffic, and the week's aggregation costs the most while changing the least.
 */
export const SERIES_REUSE_MS: Readonly<Record<OverviewRange, number>> = { hour: 1_000, day: 5_000, week: 15_000 };

/** The Overview tab's data (issue 13 §4) and the usage summary behind `GET /api/usage/summary` (§8). */
export function overviewHandlers(deps: OverviewDeps): OverviewHandlers {
  const reused = new Map<OverviewRange, OverviewSeries>();

  const seriesOf = (range: OverviewRange): OverviewSeries => {
    const now = deps.now();
    const last = reused.get(range);
    if (last !== undefined && now >= last.at && now - last.at < SERIES_REUSE_MS[range]) return last;
    // Rows reach SQLite in batches; write the buffered ones first so the newest requests count.
    deps.requestLog.flush();
    const fresh = deps.series.series(range, now);
    reused.set(range, fresh);
    return fresh;
  };

  return {
    'overview.series': ({ range }) => ok(seriesOf(range)),
    'overview.usage': async () => {
      const now = deps.now();
      const pools = await Promise.all(
        deps.quotaPools.list().map(async (pool) => ({ pool, usage: await deps.quota.usage(pool.id, now) })),
      );
      return ok(buildUsageSummary({ connections: deps.connections.list(), claude: deps.claudeStatus(), pools, now }));
    },
  };
}
