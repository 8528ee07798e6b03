import { afterEach, describe, expect, it } from 'vitest';
import {
  matchesRequestLogFilter,
  type NewRequestLogEntry,
  type RequestLogQuery,
} from '../../src-shared/domain/request-log';
import { createMemoryDb } from '../testing/temp-db';
import { logEntry } from './request-log-fixtures.testkit';
import { createRequestLog } from './request-log-repo';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

const HOUR = 3_600_000;

/** Five rows, ids 1-5, one hour apart; each is the one a search below is about. */
const ROWS: NewRequestLogEntry[] = [
  logEntry({ ts: 1 * HOUR, model: 'claude-sonnet-4-5', connection: 'work', keyName: 'laptop' }),
  logEntry({
    ts: 2 * HOUR,
    model: 'main',
    upstreamModel: 'glm-4.6',
    connection: 'glm',
    keyName: 'ci',
    failover: [{ connection: 'work', status: 429, reason: 'rate_limited' }],
    attempts: [
      { connection: 'work', status: 429, reason: 'rate_limited', ms: 20, upstreamModel: 'claude-sonnet-4-5' },
      { connection: 'glm', status: 200, reason: 'served', ms: 90, upstreamModel: 'glm-4.6' },
    ],
  }),
  logEntry({
    ts: 3 * HOUR,
    model: null,
    connection: null,
    keyName: null,
    endpoint: '/v1/v1/messages',
    status: 404,
    errorCode: 'not_found',
    errorMessage: 'No route for POST /v1/v1/messages',
  }),
  logEntry({
    ts: 4 * HOUR,
    model: 'gpt_4%o',
    keyName: 'ci',
    connection: null,
    status: 503,
    errorCode: 'all_targets_cooling_down',
    // A row from before issue 13: hops only.
    failover: [{ connection: 'openai-main', status: 500, reason: 'server_error' }],
  }),
  logEntry({ ts: 5 * HOUR, model: 'gpt-4o', connection: 'openai-main', keyName: 'Laptop-2', status: 200 }),
];

function setup() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  const log = createRequestLog(db);
  const appended = ROWS.map((row) => log.append(row));
  const ids = (query: RequestLogQuery) => log.list(query).map((e) => e.id);
  /** The renderer's matcher over the same rows: it must agree with the SQL on every query. */
  const matched = (query: RequestLogQuery) =>
    appended
      .filter((e) => matchesRequestLogFilter(e, query))
      .map((e) => e.id)
      .reverse();
  return { log, ids, matched };
}

const CASES: [string, RequestLogQuery, number[]][] = [
  ['since (inclusive)', { since: 4 * HOUR }, [5, 4]],
  ['until (inclusive)', { until: 2 * HOUR }, [2, 1]],
  ['a custom range', { since: 2 * HOUR, until: 4 * HOUR }, [4, 3, 2]],
  ['model, case-insensitive', { search: 'SONNET' }, [2, 1]],
  ['the model sent upstream', { search: 'glm-4.6' }, [2]],
  ['connection (answered or attempted)', { search: 'work' }, [2, 1]],
  ['key name', { search: 'laptop' }, [5, 1]],
  ['a status of the answer', { search: '404' }, [3]],
  ['a status of any attempt, new rows and old', { search: '429' }, [2]],
  ['an old row’s hop status', { search: '500' }, [4]],
  ['an error code', { search: 'cooling' }, [4]],
  ['an attempt reason', { search: 'rate_limited' }, [2]],
  ['an old row’s hop reason', { search: 'server_error' }, [4]],
  ['endpoint and refusal message', { search: '/v1/v1' }, [3]],
  ['LIKE wildcards match literally', { search: '_4%' }, [4]],
  ['blank search matches everything', { search: '   ' }, [5, 4, 3, 2, 1]],
  ['nothing', { search: 'nothing-like-this' }, []],
  ['search with status and range', { search: 'gpt', status: 'ok', since: 3 * HOUR }, [5]],
];

describe('request log: time range and search (issue 13 §3)', () => {
  it.each(CASES)('ISSUE-13 PROD-16: filters by %s, the SQL and the live matcher agreeing', (_, query, expected) => {
    const { ids, matched } = setup();
    expect(ids(query)).toEqual(expected);
    expect(matched(query)).toEqual(expected);
  });

  it('ISSUE-13 PROD-16: pages with beforeId inside a search and a time range', () => {
    const { log } = setup();
    const query = { search: 'a', since: 1 * HOUR };
    const first = log.list({ ...query, limit: 2 }).map((e) => e.id);
    const last = first.at(-1);
    const next = log.list({ ...query, limit: 2, ...(last === undefined ? {} : { beforeId: last }) }).map((e) => e.id);
    expect(first).toEqual([5, 4]);
    expect(next).toEqual([3, 2]);
  });

  it('ISSUE-13: a search that matches none of 1,000 rows answers empty (its speed: request-log-search.timing.test.ts)', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    const log = createRequestLog(db);
    for (let i = 0; i < 1_000; i++) log.append(ROWS[i % ROWS.length] ?? logEntry());
    log.flush();
    expect(log.list({ search: 'no-such-thing' })).toEqual([]);
    expect(log.list({ search: 'glm-4.6' }).length).toBeGreaterThan(0);
  });
});
