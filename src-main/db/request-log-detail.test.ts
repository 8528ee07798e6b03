import { afterEach, describe, expect, it } from 'vitest';
import type { RequestAttempt } from '../../src-shared/domain/request-log';
import { createMemoryDb } from '../testing/temp-db';
import { logEntry } from './request-log-fixtures.testkit';
import { createRequestLog } from './request-log-repo';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function setup() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  return { db, log: createRequestLog(db) };
}

const failedOver: RequestAttempt[] = [
  {
    connection: 'primary',
    status: 429,
    reason: 'rate_limited',
    ms: 12.4,
    upstreamModel: 'claude-sonnet-4-5',
    headers: { 'retry-after': '30', 'anthropic-ratelimit-requests-reset': '2025-01-01T00:00:30Z' },
  },
  { connection: 'backup', status: 200, reason: 'served', ms: 80, upstreamModel: 'claude-sonnet-4-5-20250929' },
];

describe('request log: attempts, upstream model and refusal messages (issue 13 §3)', () => {
  it('ISSUE-13: migration 0015 adds upstream_model, attempts_json and error_message as nullable TEXT', () => {
    const { db } = setup();
    const columns = db
      .prepare<[], { name: string; type: string; notnull: number }>(
        'SELECT name, type, "notnull" FROM pragma_table_info(\'request_log\')',
      )
      .all()
      .filter((c) => ['upstream_model', 'attempts_json', 'error_message'].includes(c.name));
    expect(columns).toEqual([
      { name: 'upstream_model', type: 'TEXT', notnull: 0 },
      { name: 'attempts_json', type: 'TEXT', notnull: 0 },
      { name: 'error_message', type: 'TEXT', notnull: 0 },
    ]);
  });

  it('ISSUE-13: every attempt with its ms (rounded), upstream model and headers reads back as appended', () => {
    const { db, log } = setup();
    const hop = { connection: 'primary', status: 429, reason: 'rate_limited' };
    const appended = log.append(
      logEntry({ failover: [hop], attempts: failedOver, upstreamModel: 'claude-sonnet-4-5-20250929' }),
    );
    expect(appended.attempts?.[0]?.ms).toBe(12);
    expect(log.list()).toEqual([appended]);
    const [read] = log.list();
    expect(read?.failover).toEqual([hop]);
    expect(read?.attempts?.map((a) => [a.connection, a.status, a.reason])).toEqual([
      ['primary', 429, 'rate_limited'],
      ['backup', 200, 'served'],
    ]);
    expect(read?.attempts?.[0]?.headers).toEqual({
      'retry-after': '30',
      'anthropic-ratelimit-requests-reset': '2025-01-01T00:00:30Z',
    });
    expect(read?.upstreamModel).toBe('claude-sonnet-4-5-20250929');
    const stored = db.prepare<[], { attempts_json: string }>('SELECT attempts_json FROM request_log').get();
    expect(JSON.parse(stored?.attempts_json ?? 'null')).toHaveLength(2);
  });

  it('ISSUE-13: a refusal stores its message and no attempts (NULL column), and reads [] back', () => {
    const { db, log } = setup();
    log.append(
      logEntry({
        keyName: null,
        connection: null,
        status: 401,
        errorCode: 'unauthorized',
        errorMessage: 'Invalid local API key',
      }),
    );
    const [read] = log.list();
    expect(read).toMatchObject({
      keyName: null,
      status: 401,
      errorCode: 'unauthorized',
      errorMessage: 'Invalid local API key',
    });
    expect(read?.attempts).toEqual([]);
    expect(read?.upstreamModel).toBeNull();
    const stored = db.prepare<[], { attempts_json: string | null }>('SELECT attempts_json FROM request_log').get();
    expect(stored?.attempts_json).toBeNull();
  });

  it('ISSUE-13: a row written before migration 0015 (old hops, NULL new columns) still reads, attempts []', () => {
    const { db, log } = setup();
    db.prepare(
      `INSERT INTO request_log (id, ts, endpoint, status, stream, latency_ms, failover_json)
       VALUES (99, 5, 'messages', 200, 0, 10, '[{"connection":"a","status":503,"reason":"server_error"},{"bogus":1}]')`,
    ).run();
    const [old] = log.list();
    expect(old).toMatchObject({
      id: 99,
      failover: [{ connection: 'a', status: 503, reason: 'server_error' }],
      attempts: [],
      upstreamModel: null,
      errorMessage: null,
    });
  });

  it('ISSUE-13: a malformed attempts column reads as no attempts instead of failing the list', () => {
    const { db, log } = setup();
    log.append(logEntry({ attempts: failedOver }));
    log.flush();
    db.exec(`UPDATE request_log SET attempts_json = '{not json'`);
    expect(log.list()[0]?.attempts).toEqual([]);
    // The search reads the column with json_each: a bad value must not fail the statement either.
    expect(log.list({ search: 'primary' })).toEqual([]);
    expect(log.list({ search: 'backup' })).toHaveLength(1);
  });
});
