import { ok, type Result } from '../../../src-shared/contract/errors';
import type { ActivityCsv, RequestLogEntry, RequestLogFilter } from '../../../src-shared/domain/request-log';
import { csvFilename, requestLogCsv } from '../../db/request-log-csv';
import type { RequestLog } from '../../db/request-log-repo';

/** Rows one export holds at most (newest first): ~20 MB of CSV at worst, still one answer over IPC or HTTP. */
export const CSV_EXPORT_MAX_ROWS = 50_000;
const PAGE = 1_000;

/**
 * `activity.exportCsv`: every row of the filter, newest first, paged through the log's own list
 * (the same filters the Activity tab applies), made into CSV here so both doors give one file.
 */
export function exportActivityCsv(
  log: RequestLog,
  filter: RequestLogFilter,
  now: number,
  maxRows = CSV_EXPORT_MAX_ROWS,
): Result<ActivityCsv> {
  const rows: RequestLogEntry[] = [];
  let beforeId: number | undefined;
  let truncated = false;
  for (;;) {
    const page = log.list({ ...filter, limit: PAGE, ...(beforeId === undefined ? {} : { beforeId }) });
    for (const entry of page) {
      if (rows.length === maxRows) {
        truncated = true;
        break;
      }
      rows.push(entry);
    }
    const last = page.at(-1);
    if (truncated || page.length < PAGE || !last) break;
    beforeId = last.id;
  }
  return ok({ filename: csvFilename(now), csv: requestLogCsv(rows), rows: rows.length, truncated });
}
