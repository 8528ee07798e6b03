import { ok, type Result } from '../../src-shared/contract/errors';
import type { MethodOutput, MethodParsedInput } from '../../src-shared/contract/methods';
import { matchesRequestLogFilter, type RequestLogEntry } from '../../src-shared/domain/request-log';
import type { FakeState } from './fake-handlers';

type Handler<M extends 'activity.list' | 'activity.summary' | 'activity.exportCsv'> = (
  input: MethodParsedInput<M>,
) => Result<MethodOutput<M>>;

/** The fake's export: one line per row (id, status, connection), enough for a UI test to count. */
function fakeCsv(rows: RequestLogEntry[]): string {
  return ['id,status,connection', ...rows.map((e) => `${e.id},${e.status},${e.connection ?? ''}`)].join('\r\n');
}

/** The activity log over the fake's memory, filtered with the same test the core's SQL applies. */
export function createFakeActivityHandlers(state: FakeState) {
  const matching = (filter: Parameters<typeof matchesRequestLogFilter>[1]): RequestLogEntry[] =>
    state.activity.filter((e) => matchesRequestLogFilter(e, filter)).sort((a, b) => b.id - a.id);
  const list: Handler<'activity.list'> = (query = {}) => {
    const { limit, beforeId, ...filter } = query;
    const rows = matching(filter).filter((e) => beforeId === undefined || e.id < beforeId);
    return ok(rows.slice(0, limit ?? 100));
  };
  const summary: Handler<'activity.summary'> = () =>
    ok({ requestsToday: state.activity.length, errorsToday: state.activity.filter((e) => e.status >= 400).length });
  const exportCsv: Handler<'activity.exportCsv'> = (filter = {}) => {
    const rows = matching(filter);
    return ok({ filename: 'leeway-activity-fake.csv', csv: fakeCsv(rows), rows: rows.length, truncated: false });
  };
  return { 'activity.list': list, 'activity.summary': summary, 'activity.exportCsv': exportCsv };
}
