import { afterEach, describe, expect, it } from 'vitest';
import {
  connectionDraft,
  startHandlersHarness,
  T0,
  type HandlersHarness,
} from '../api/handlers/handlers-harness.testkit';
import { startAdminHarness, TEST_TOKEN, type AdminHarness } from '../testing/admin-harness';
import { compilePath } from './rest-match';

/** QUI-12/14/15 through the real admin HTTP door, over real handlers and a real SQLite file. */
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const hourly = (limit: number) => ({ unit: 'requests', window: 'hourly', limit });
const team = {
  name: 'team',
  connection: 'max-1',
  dimensions: [hourly(20)],
  allocations: [
    { key: 'alice', weight: 50, policy: 'hard' },
    { key: 'bob', weight: 50, policy: 'soft' },
  ],
};

async function setUp(): Promise<{ h: HandlersHarness; admin: AdminHarness }> {
  const h = startHandlersHarness();
  open.push(h);
  h.storage.connections.upsert(connectionDraft('max-1'), T0);
  h.storage.connections.upsert(
    { ...connectionDraft('kimi-1'), kind: 'openai-compatible', baseUrl: 'https://api.moonshot.ai/v1' },
    T0,
  );
  for (const name of ['alice', 'bob']) h.storage.keys.create({ name }, T0);
  h.settle();
  const admin = await startAdminHarness({ handlers: h.handlers });
  open.push(admin);
  return { h, admin };
}

async function send(
  admin: AdminHarness,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; headers: Headers }> {
  const res = await fetch(`${admin.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

describe('quota REST endpoints', () => {
  it('QUI-12: GET /api/quota/pools is the bare array, [] with no pools', async () => {
    const { admin } = await setUp();
    const res = await send(admin, 'GET', '/api/quota/pools');
    expect(res.status).toBe(200);
    expect(res.json).toEqual([]);
  });

  it('QUI-12: POST /api/quota/pools creates (201), replaces by name (200), and the list shows it', async () => {
    const { h, admin } = await setUp();
    const created = await send(admin, 'POST', '/api/quota/pools', team);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'team', connections: ['max-1'], dimensionsSource: 'pool' });
    const replaced = await send(admin, 'POST', '/api/quota/pools', { ...team, dimensions: [hourly(40)] });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ effectiveDimensions: [hourly(40)] });
    const list = await send(admin, 'GET', '/api/quota/pools');
    expect(list.json).toEqual([replaced.json]);
    expect(h.quotaReloads()).toBe(2);
  });

  it('QUI-12: POST refuses an unknown key with 400 invalid_input naming its path, and bad JSON with invalid_json', async () => {
    const { admin } = await setUp();
    const unknown = await send(admin, 'POST', '/api/quota/pools', {
      ...team,
      allocations: [{ key: 'alice' }, { key: 'carol' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', details: { issues: [{ path: 'allocations.1.key' }] } },
    });
    const schema = await send(admin, 'POST', '/api/quota/pools', { ...team, dimensions: [{ unit: 'hours' }] });
    expect(schema.status).toBe(400);
    expect(schema.json).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const broken = await send(admin, 'POST', '/api/quota/pools', '{"name":');
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
    expect((await send(admin, 'GET', '/api/quota/pools')).json).toEqual([]);
  });

  it('QUI-10 QUI-12: GET /api/quota/pools/:id/usage by id or URL-encoded name; unknown 404, malformed 400', async () => {
    const { admin } = await setUp();
    const created = await send(admin, 'POST', '/api/quota/pools', team);
    const id = (created.json as { id: string }).id;
    const byId = await send(admin, 'GET', `/api/quota/pools/${encodeURIComponent(id)}/usage`);
    expect(byId.status).toBe(200);
    expect(byId.json).toMatchObject({
      poolId: id,
      dimensions: [
        { limit: 20, keys: [{ key: 'alice', fairShare: 10, consumed: 0, remaining: 10, borrowing: false }, {}] },
      ],
    });
    // `t%65am` decodes to `team`: the parameter is URL-decoded before the lookup.
    const byName = await send(admin, 'GET', '/api/quota/pools/t%65am/usage');
    expect(byName.status).toBe(200);
    expect(byName.json).toMatchObject({ poolId: id, name: 'team' });
    const unknown = await send(admin, 'GET', '/api/quota/pools/nobody/usage');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const malformed = await send(admin, 'GET', '/api/quota/pools/%E0%A4%A/usage');
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/^id:/) },
    });
    const blank = await send(admin, 'GET', '/api/quota/pools/%20/usage');
    expect(blank.status).toBe(400);
    const empty = await send(admin, 'GET', '/api/quota/pools//usage');
    expect(empty.status).toBe(404);
    expect(empty.json).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('QUI-14 QUI-15: PUT /api/quota/plans/:connection stores an override; DELETE falls back to the catalog', async () => {
    const { admin } = await setUp();
    const put = await send(admin, 'PUT', '/api/quota/plans/kimi-1', { dimensions: [hourly(900)] });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({
      connection: 'kimi-1',
      catalogProvider: 'kimi',
      source: 'manual',
      dimensions: [hourly(900)],
      catalogDimensions: [hourly(1500)],
    });
    const removed = await send(admin, 'DELETE', '/api/quota/plans/kimi-1');
    expect(removed.status).toBe(200);
    expect(removed.json).toMatchObject({ source: 'catalog', dimensions: [hourly(1500)] });
    const none = await send(admin, 'DELETE', '/api/quota/plans/max-1');
    expect(none.json).toMatchObject({ source: 'none', dimensions: [] });
  });

  it('QUI-14: PUT refuses missing dimensions (400) and an unknown connection (404)', async () => {
    const { admin } = await setUp();
    const missing = await send(admin, 'PUT', '/api/quota/plans/kimi-1', {});
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const empty = await send(admin, 'PUT', '/api/quota/plans/kimi-1', { dimensions: [] });
    expect(empty.status).toBe(400);
    const ghost = await send(admin, 'PUT', '/api/quota/plans/ghost', { dimensions: [hourly(1)] });
    expect(ghost.status).toBe(404);
    expect(ghost.json).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('QUI-12: a known path with another method is 405 with Allow; an unknown quota path is 404', async () => {
    const { admin } = await setUp();
    const wrong = await send(admin, 'DELETE', '/api/quota/pools');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expect(wrong.json).toMatchObject({ ok: false, error: { code: 'method_not_allowed' } });
    const unknown = await send(admin, 'GET', '/api/quota/nothing');
    expect(unknown.status).toBe(404);
  });

  it('BRK-7: the resilience endpoints still answer through the same table', async () => {
    const admin = await startAdminHarness();
    open.push(admin);
    const health = await send(admin, 'GET', '/api/monitoring/health');
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({ status: 'ok', providers: [] });
    const cooldowns = await send(admin, 'GET', '/api/resilience/cooldowns');
    expect(cooldowns.status).toBe(200);
    expect(cooldowns.json).toMatchObject({ connections: [], models: [] });
  });
});

describe('path patterns', () => {
  it('QUI-12: matches literal segments and one-segment parameters, decoded; other shapes do not match', () => {
    const usage = compilePath('/api/quota/pools/:id/usage');
    expect(usage.match('/api/quota/pools/a%2Fb/usage')).toEqual({ ok: true, value: { id: 'a/b' } });
    expect(usage.match('/api/quota/pools/x/usage/')).toBeNull();
    expect(usage.match('/api/quota/pools/x/other')).toBeNull();
    expect(usage.match('/api/quota/pools/usage')).toBeNull();
    expect(compilePath('/api/quota/pools').match('/api/quota/pools')).toEqual({ ok: true, value: {} });
    expect(usage.match(`/api/quota/pools/${'x'.repeat(257)}/usage`)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });
});
