import { afterEach, describe, expect, it } from 'vitest';
import type { ClaudeConnectionStatus } from '../../src-shared/domain/claude';
import { createFakeQuotaAdmin } from '../api/handlers/fake-quota-admin.testkit';
import { connectionDraft, startHandlersHarness, T0 } from '../api/handlers/handlers-harness.testkit';
import { overviewHandlers } from '../api/handlers/overview';
import { startAdminHarness, TEST_TOKEN, type AdminHarness } from '../testing/admin-harness';

/** Issue 13 §8 through the real admin HTTP door, over real handlers and a real SQLite file. */
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const RESETS_AT_S = (T0 + 3_600_000) / 1000;

async function setUp(): Promise<AdminHarness> {
  const h = startHandlersHarness();
  open.push(h);
  const max = h.storage.connections.upsert({ ...connectionDraft('max-1'), kind: 'claude-oauth' }, T0);
  h.storage.keys.create({ name: 'alice' }, T0);
  const pool = h.storage.quotaPools.upsert(
    {
      name: 'team',
      connections: ['max-1'],
      dimensions: [{ unit: 'tokens', window: 'daily', limit: 1_000_000 }],
      allocations: [{ key: 'alice', weight: 0, policy: 'hard', capValue: null, capUnit: null }],
      saturationThreshold: null,
    },
    T0,
  );
  if (!pool.ok) throw new Error(pool.error.message);
  const claude: ClaudeConnectionStatus = {
    connectionId: max.id,
    usage: { windows: { '5h': { utilization: 0.25, resetsAtSeconds: RESETS_AT_S } }, observedAt: T0 },
    lane: { kind: 'idle' },
    lastReset: null,
    lastVia: null,
  };
  const overview = overviewHandlers({
    series: h.storage.series,
    requestLog: h.storage.requestLog,
    connections: h.storage.connections,
    quotaPools: h.storage.quotaPools,
    quota: createFakeQuotaAdmin(() => h.storage.quotaPools.list()),
    claudeStatus: () => [claude],
    now: () => T0,
  });
  const admin = await startAdminHarness({ handlers: { ...h.handlers, ...overview } });
  open.push(admin);
  return admin;
}

describe('GET /api/usage/summary', () => {
  it('refuses a request without the admin token (401) or with a wrong one', async () => {
    const admin = await setUp();
    const none = await fetch(`${admin.base}/api/usage/summary`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    const wrong = await fetch(`${admin.base}/api/usage/summary`, { headers: { authorization: 'Bearer nope-nope' } });
    expect(wrong.status).toBe(401);
  });

  it('answers the documented shape: connections with used/limit/resets-at windows, pools per dimension', async () => {
    const admin = await setUp();
    const res = await fetch(`${admin.base}/api/usage/summary`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      at: T0,
      connections: [
        {
          name: 'max-1',
          kind: 'claude-oauth',
          enabled: true,
          observedAt: T0,
          status: null,
          windows: [
            { window: '5h', unit: 'percent', used: 25, limit: 100, resetsAt: RESETS_AT_S * 1000, status: null },
          ],
        },
      ],
      pools: [
        {
          name: 'team',
          connections: ['max-1'],
          saturationThreshold: 0.5,
          dimensions: [
            {
              unit: 'tokens',
              window: 'daily',
              used: 0,
              limit: 1_000_000,
              usedPercent: 0,
              resetsAt: (Math.floor(T0 / 86_400_000) + 1) * 86_400_000,
              mode: 'generous',
            },
          ],
        },
      ],
    });
  });

  it('only GET: another method gets 405 with Allow', async () => {
    const admin = await setUp();
    const res = await fetch(`${admin.base}/api/usage/summary`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});
