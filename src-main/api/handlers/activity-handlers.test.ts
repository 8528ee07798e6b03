import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityCsv, RequestLogEntry } from '../../../src-shared/domain/request-log';
import { logEntry } from '../../db/request-log-fixtures.testkit';
import { exportActivityCsv } from './activity-export';
import { startHandlersHarness, T0, type HandlersHarness } from './handlers-harness.testkit';

const harnesses: HandlersHarness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.close();
});

const MINUTE = 60_000;

function setUp() {
  const h = startHandlersHarness();
  harnesses.push(h);
  const log = h.storage.requestLog;
  log.append(logEntry({ ts: T0 - 90 * MINUTE, connection: 'primary', model: 'claude-sonnet-4-5' }));
  log.append(
    logEntry({
      ts: T0 - 30 * MINUTE,
      connection: 'backup',
      failover: [{ connection: 'primary', status: 429, reason: 'rate_limited' }],
      attempts: [
        { connection: 'primary', status: 429, reason: 'rate_limited', ms: 15, headers: { 'retry-after': '20' } },
        { connection: 'backup', status: 200, reason: 'served', ms: 70 },
      ],
    }),
  );
  log.append(
    logEntry({
      ts: T0 - MINUTE,
      keyName: null,
      model: null,
      connection: null,
      status: 401,
      errorCode: 'unauthorized',
      errorMessage: 'Invalid local API key',
    }),
  );
  return h;
}

async function list(h: HandlersHarness, input: unknown): Promise<number[]> {
  const result = await h.router.call('activity.list', input);
  if (!result.ok) throw new Error(result.error.message);
  return (result.value as RequestLogEntry[]).map((e) => e.id);
}

describe('activity handlers (issue 13 §3)', () => {
  it('ISSUE-13 PROD-8: activity.list takes a time range and a search through the contract', async () => {
    const h = setUp();
    expect(await list(h, { since: T0 - 60 * MINUTE })).toEqual([3, 2]);
    expect(await list(h, { since: T0 - 60 * MINUTE, until: T0 - 10 * MINUTE })).toEqual([2]);
    expect(await list(h, { search: '429' })).toEqual([2]);
    expect(await list(h, { search: 'unauthorized' })).toEqual([3]);
    expect(await list(h, { search: 'primary', limit: 1 })).toEqual([2]);
    expect(await list(h, { search: 'primary', beforeId: 2 })).toEqual([1]);
  });

  it('ISSUE-13 PROD-8: a search over 200 characters or a negative time is invalid input, never a throw', async () => {
    const h = setUp();
    for (const input of [{ search: 'x'.repeat(201) }, { since: -1 }, { until: 1.5 }, { sinse: 0 }]) {
      const result = await h.router.call('activity.list', input);
      expect(result.ok, JSON.stringify(input)).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('invalid_input');
    }
    const csv = await h.router.call('activity.exportCsv', { limit: 5 });
    expect(csv.ok).toBe(false);
  });

  it('ISSUE-13: activity.exportCsv gives the filter’s rows newest first as a named CSV file', async () => {
    const h = setUp();
    const result = await h.router.call('activity.exportCsv', { since: T0 - 60 * MINUTE });
    expect(result.ok).toBe(true);
    const file = (result.ok ? result.value : null) as ActivityCsv | null;
    expect(file).toMatchObject({ filename: 'leeway-activity-20231114-221320.csv', rows: 2, truncated: false });
    const lines = file?.csv.trimEnd().split('\r\n') ?? [];
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^3,/);
    expect(lines[1]).toContain('Invalid local API key');
    expect(lines[2]).toMatch(/^2,/);
    expect(lines[2]).toContain('primary 429 rate_limited 15ms retry-after=20; backup 200 served 70ms');
    const all = await h.router.call('activity.exportCsv', undefined);
    expect(all.ok && (all.value as ActivityCsv).rows).toBe(3);
  });

  it('ISSUE-13: an export pages past the list limit and says when the cap cut it', () => {
    const h = startHandlersHarness();
    harnesses.push(h);
    const log = h.storage.requestLog;
    for (let i = 0; i < 2_500; i++) log.append(logEntry({ ts: i }));
    const whole = exportActivityCsv(log, {}, T0);
    expect(whole.ok && [whole.value.rows, whole.value.truncated]).toEqual([2_500, false]);
    const lines = whole.ok ? whole.value.csv.trimEnd().split('\r\n') : [];
    expect(lines[1]).toMatch(/^2500,/);
    expect(lines.at(-1)).toMatch(/^1,/);
    const capped = exportActivityCsv(log, {}, T0, 2_000);
    expect(capped.ok && [capped.value.rows, capped.value.truncated]).toEqual([2_000, true]);
    const exact = exportActivityCsv(log, {}, T0, 2_500);
    expect(exact.ok && [exact.value.rows, exact.value.truncated]).toEqual([2_500, false]);
  });
});
