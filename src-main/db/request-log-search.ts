import { searchStatus, searchTerm, type RequestLogQuery } from '../../src-shared/domain/request-log';

/** The named parameters of the activity list statement; a NULL one switches its condition off. */
export interface ListParams {
  limit: number;
  beforeId: number | null;
  connection: string | null;
  model: string | null;
  status: 'ok' | 'error' | null;
  since: number | null;
  until: number | null;
  /** `%term%` with LIKE's wildcards escaped; NULL: no search. */
  like: string | null;
  /** A 3-digit search term as a status; NULL otherwise. */
  code: number | null;
}

/**
 * The free-text search, as SQL: the same fields matchesRequestLogFilter() reads, and any attempt's
 * connection, reason, upstream model or status inside the JSON columns (attempts, else the older failover hops).
 * LIKE folds ASCII case only; the renderer's matcher folds all, so the two differ only past ASCII.
 * A corrupt JSON value reads as no attempts (json_each would fail the whole statement).
 */
export const SEARCH_CONDITION = `(@like IS NULL
    OR status = @code
    OR model LIKE @like ESCAPE '\\' OR upstream_model LIKE @like ESCAPE '\\'
    OR connection LIKE @like ESCAPE '\\' OR key_name LIKE @like ESCAPE '\\'
    OR endpoint LIKE @like ESCAPE '\\' OR error_code LIKE @like ESCAPE '\\'
    OR error_message LIKE @like ESCAPE '\\'
    OR EXISTS (SELECT 1 FROM json_each(
        CASE WHEN json_valid(COALESCE(attempts_json, failover_json))
          THEN COALESCE(attempts_json, failover_json) ELSE '[]' END) AS hop
      WHERE json_extract(hop.value, '$.connection') LIKE @like ESCAPE '\\'
        OR json_extract(hop.value, '$.reason') LIKE @like ESCAPE '\\'
        OR json_extract(hop.value, '$.upstreamModel') LIKE @like ESCAPE '\\'
        OR json_extract(hop.value, '$.status') = @code))`;

/** `%`, `_` and the escape itself match literally in a search. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function listParams(query: RequestLogQuery, limit: number): ListParams {
  const term = searchTerm(query.search);
  return {
    limit,
    beforeId: query.beforeId ?? null,
    connection: query.connection ?? null,
    model: query.model ?? null,
    status: query.status ?? null,
    since: query.since ?? null,
    until: query.until ?? null,
    like: term === '' ? null : likePattern(term),
    code: term === '' ? null : searchStatus(term),
  };
}
