import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionCooldownRow, CooldownSnapshot, ModelLockoutRow } from '../../src-shared/domain/cooldown';
import type { FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection } from '../testing/start-leeway';
import {
  askAnthropic,
  call,
  callRaw,
  connectionRow,
  createScene,
  providerId,
  providerRow,
  rest,
  send,
} from './resilience-it.testkit';

/** The REST door for resilience (LOCK-8, BRK-7, BRK-8, PROD-9) and the resilience settings (LOCK-10). */
const scene = createScene();
afterEach(() => scene.cleanup());

const MODEL = 'claude-sonnet-4-5';

interface HealthBody {
  status: 'ok' | 'degraded';
  providers: { provider: string; state: string; failureCount: number; retryAfterMs: number | null }[];
  coolingConnections: number;
  modelLockouts: number;
}

async function pair(): Promise<{ first: FakeUpstream; second: FakeUpstream }> {
  const first = await scene.fake('first');
  const second = await scene.fake('second');
  await scene.start({
    connections: [
      anthropicConnection('first', first.url, { priority: 1, models: [MODEL, 'model-x'] }),
      anthropicConnection('second', second.url, { priority: 2, models: [MODEL] }),
    ],
    combos: [
      {
        name: 'main',
        targets: [
          { connection: 'first', model: MODEL },
          { connection: 'second', model: MODEL },
        ],
      },
    ],
  });
  return { first, second };
}

/** Both connections of the combo cooling: first for 240 s, second for 180 s (longer than the 90 s wait, CONC-8). */
async function coolBoth(first: FakeUpstream, second: FakeUpstream): Promise<void> {
  first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '240' } });
  second.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '180' } });
  expect((await send(askAnthropic(scene.h, 'main'))).status).toBe(429);
}

describe('REST: /api/resilience/cooldowns', () => {
  it('PROD-9/PROV-9/COOL-2: GET lists every connection with its cooldown fields, every provider and the model lockouts', async () => {
    const { first, second } = await pair();
    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    await send(askAnthropic(scene.h, 'main'));

    const res = await rest(scene.h, 'GET', '/api/resilience/cooldowns');
    expect(res.status).toBe(200);
    const body = res.json as CooldownSnapshot;
    expect(Object.keys(body).sort()).toEqual(['connections', 'models', 'now', 'providers']);
    const row = body.connections.find((c) => c.name === 'first');
    expect(row).toEqual<ConnectionCooldownRow>({
      id: expect.any(String) as string,
      name: 'first',
      provider: providerId('anthropic', first),
      rateLimitedUntil: expect.any(Number) as number,
      backoffLevel: 0,
      testStatus: 'unavailable',
      lastError: expect.any(String) as string,
      lastErrorType: 'rate_limit_exceeded',
      errorCode: '429',
      terminal: false,
      retryAfterMs: expect.any(Number) as number,
    });
    expect(body.connections.find((c) => c.name === 'second')).toMatchObject({
      testStatus: 'active',
      rateLimitedUntil: null,
      retryAfterMs: null,
      lastError: null,
    });
    expect(body.providers.map((p) => p.provider).sort()).toEqual(
      [providerId('anthropic', first), providerId('anthropic', second)].sort(),
    );
    expect(body.models).toEqual([]);
  });

  it('PROD-4: DELETE with a connection clears just that one; DELETE with no body clears every transient state', async () => {
    const { first, second } = await pair();
    await coolBoth(first, second);

    const one = await rest(scene.h, 'DELETE', '/api/resilience/cooldowns', { connection: 'first' });
    expect(one).toEqual({ status: 200, json: { ok: true, cleared: 1 } });
    expect((await connectionRow(scene.h, 'first')).testStatus).toBe('active');
    expect((await connectionRow(scene.h, 'second')).testStatus).toBe('unavailable');

    const all = await rest(scene.h, 'DELETE', '/api/resilience/cooldowns');
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ ok: true, cleared: expect.any(Number) as number });
    expect((await connectionRow(scene.h, 'second')).testStatus).toBe('active');
    // Both are selectable again: the next request goes to the first target.
    expect((await send(askAnthropic(scene.h, 'main'))).headers.get('x-leeway-connection')).toBe('first');
  });

  it('PROD-9: DELETE refuses a malformed connection and reports an unknown one', async () => {
    await pair();
    const bad = await rest(scene.h, 'DELETE', '/api/resilience/cooldowns', { connection: 42 });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const unknown = await rest(scene.h, 'DELETE', '/api/resilience/cooldowns', { connection: 'nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('REST: breakers, reset and health', () => {
  async function tripFirst(first: FakeUpstream): Promise<void> {
    first.enqueue({ kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    await send(askAnthropic(scene.h, 'main'));
    await send(askAnthropic(scene.h, 'main'));
    expect((await providerRow(scene.h, providerId('anthropic', first)))?.state).toBe('OPEN');
  }

  it("BRK-8: GET /api/monitoring/health reports every provider's breaker state, failure count and retry-after", async () => {
    const { first, second } = await pair();
    const healthy = await rest(scene.h, 'GET', '/api/monitoring/health');
    expect(healthy.status).toBe(200);
    expect((healthy.json as HealthBody).status).toBe('ok');
    expect((healthy.json as HealthBody).providers.map((p) => p.state)).toEqual(['CLOSED', 'CLOSED']);

    await tripFirst(first);
    const res = await rest(scene.h, 'GET', '/api/monitoring/health');
    const body = res.json as HealthBody;
    expect(body.status).toBe('degraded');
    const open = body.providers.find((p) => p.provider === providerId('anthropic', first));
    expect(open).toMatchObject({ state: 'OPEN', failureCount: 2 });
    expect(open?.retryAfterMs).toBeGreaterThan(13_000);
    expect(open?.retryAfterMs).toBeLessThanOrEqual(15_000);
    expect(body.providers.find((p) => p.provider === providerId('anthropic', second))).toEqual({
      provider: providerId('anthropic', second),
      state: 'CLOSED',
      failureCount: 0,
      retryAfterMs: null,
    });
    expect(body.coolingConnections).toBe(0);
    expect(body.modelLockouts).toBe(0);
  });

  it('BRK-7: POST /api/resilience/reset closes every breaker and clears model lockouts, and that persists', async () => {
    const { first } = await pair();
    // Only 404 locks here, so the 503s below reach the breaker instead of locking the model first.
    await call(scene.h, 'resilience.updateSettings', { modelLockout: { enabled: true, errorCodes: [404] } });
    first.enqueue({ kind: 'status', status: 404 });
    expect((await send(askAnthropic(scene.h, 'first/model-x'))).status).toBe(404);
    await tripFirst(first);
    expect((await snapshot()).models).toHaveLength(1);

    const res = await rest(scene.h, 'POST', '/api/resilience/reset');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, resetCount: 1, message: expect.any(String) as string });
    const health = (await rest(scene.h, 'GET', '/api/monitoring/health')).json as HealthBody;
    expect(health.status).toBe('ok');
    expect(health.providers.every((p) => p.state === 'CLOSED' && p.failureCount === 0)).toBe(true);
    expect(health.modelLockouts).toBe(0);
    expect(
      ((await rest(scene.h, 'GET', '/api/resilience/model-cooldowns')).json as { items: ModelLockoutRow[] }).items,
    ).toEqual([]);

    await scene.restart();
    expect((await providerRow(scene.h, providerId('anthropic', first)))?.state).toBe('CLOSED');
    const served = await send(askAnthropic(scene.h, 'main'));
    expect(served.headers.get('x-leeway-connection')).toBe('first');
  });

  it("BRK-7: one provider's breaker can be reset on its own, and stays reset after a restart", async () => {
    const { first } = await pair();
    await tripFirst(first);
    expect(
      await call(scene.h, 'cooldowns.clear', { target: 'provider', provider: providerId('anthropic', first) }),
    ).toEqual({ cleared: 1 });
    expect(await providerRow(scene.h, providerId('anthropic', first))).toMatchObject({
      state: 'CLOSED',
      failureCount: 0,
    });
    await scene.restart();
    expect(await providerRow(scene.h, providerId('anthropic', first))).toMatchObject({
      state: 'CLOSED',
      failureCount: 0,
    });
    expect((await send(askAnthropic(scene.h, 'main'))).headers.get('x-leeway-connection')).toBe('first');
  });

  async function snapshot(): Promise<CooldownSnapshot> {
    return call(scene.h, 'cooldowns.list', undefined);
  }
});

describe('REST: authorisation', () => {
  const ENDPOINTS = [
    ['GET', '/api/resilience/cooldowns'],
    ['DELETE', '/api/resilience/cooldowns'],
    ['GET', '/api/resilience/model-cooldowns'],
    ['DELETE', '/api/resilience/model-cooldowns'],
    ['POST', '/api/resilience/reset'],
    ['GET', '/api/monitoring/health'],
  ] as const;

  it('PROD-18/LOCK-8: every resilience endpoint needs the admin token; the local proxy key is not enough', async () => {
    const { first, second } = await pair();
    await coolBoth(first, second);
    for (const [method, path] of ENDPOINTS) {
      for (const token of [null, 'wrong-token-0123456789abcdef', scene.h.key]) {
        const res = await rest(scene.h, method, path, method === 'GET' ? undefined : {}, token);
        expect(res.status, `${method} ${path} with ${token ?? 'no token'}`).toBe(401);
      }
    }
    // Nothing was cleared by the refused calls.
    expect((await connectionRow(scene.h, 'first')).testStatus).toBe('unavailable');
    expect((await connectionRow(scene.h, 'second')).testStatus).toBe('unavailable');
  });
});

describe('resilience settings', () => {
  async function issues(patch: unknown): Promise<{ path: string; message: string }[]> {
    const result = await callRaw(scene.h, 'resilience.updateSettings', patch);
    expect(result.ok).toBe(false);
    if (result.ok) return [];
    expect(result.error.code).toBe('invalid_input');
    return (result.error.details as { issues: { path: string; message: string }[] }).issues;
  }

  it('LOCK-10: out-of-range, mistyped and unknown values are refused with their path, and nothing is stored', async () => {
    await pair();
    const before = await call(scene.h, 'resilience.getSettings', undefined);
    expect((await issues({ breaker: { local: { failureThreshold: 0 } } })).map((i) => i.path)).toEqual([
      'breaker.local.failureThreshold',
    ]);
    expect((await issues({ breaker: { local: { resetTimeoutMs: 10 } } })).map((i) => i.path)).toEqual([
      'breaker.local.resetTimeoutMs',
    ]);
    expect((await issues({ modelLockout: { enabled: 'yes' } })).map((i) => i.path)).toEqual(['modelLockout.enabled']);
    const unknownField = await issues({ breaker: { local: { bogus: 1 } } });
    expect(unknownField[0]?.path).toBe('breaker.local');
    expect(unknownField[0]?.message).toContain('bogus');
    const unknownSection = await issues({ bogus: {} });
    expect(JSON.stringify(unknownSection)).toContain('bogus');
    const both = await issues({
      breaker: { apikey: { failureThreshold: -1 } },
      modelLockout: { maxBackoffSteps: 'x' },
    });
    expect(both.map((i) => i.path).sort()).toEqual(['breaker.apikey.failureThreshold', 'modelLockout.maxBackoffSteps']);
    expect(await call(scene.h, 'resilience.getSettings', undefined)).toEqual(before);
  });

  it('LOCK-10/LOCK-9: valid values are clamped, deep-merged, persisted across a restart, and take effect', async () => {
    const { first } = await pair();
    const saved = await call(scene.h, 'resilience.updateSettings', {
      modelLockout: { enabled: true, baseCooldownMs: 1, maxCooldownMs: 2 },
      breaker: { local: { failureThreshold: 5 } },
    });
    expect(saved.modelLockout).toMatchObject({ enabled: true, baseCooldownMs: 5_000, maxCooldownMs: 5_000 });
    // A later patch of the same section keeps what the first one set.
    await call(scene.h, 'resilience.updateSettings', { modelLockout: { maxBackoffSteps: 3 } });

    await scene.restart();
    const settings = await call(scene.h, 'resilience.getSettings', undefined);
    expect(settings.modelLockout).toMatchObject({
      enabled: true,
      baseCooldownMs: 5_000,
      maxCooldownMs: 5_000,
      maxBackoffSteps: 3,
    });
    expect((settings.breaker as { local: { failureThreshold: number } }).local.failureThreshold).toBe(5);

    // In force after the restart: lockout is on, and its clamped length applies.
    first.enqueue({ kind: 'status', status: 404 });
    const before = Date.now();
    await send(askAnthropic(scene.h, 'first/model-x'));
    const items = ((await rest(scene.h, 'GET', '/api/resilience/model-cooldowns')).json as { items: ModelLockoutRow[] })
      .items;
    expect(items).toHaveLength(1);
    expect(Math.abs((items[0]?.expiresAt ?? 0) - (before + 5_000))).toBeLessThan(1_000);
  });

  it('LOCK-13: active model lockouts live in memory only and are gone after a restart', async () => {
    const { first } = await pair();
    await call(scene.h, 'resilience.updateSettings', { modelLockout: { enabled: true } });
    first.enqueue({ kind: 'status', status: 404 });
    await send(askAnthropic(scene.h, 'first/model-x'));
    expect((await call(scene.h, 'cooldowns.list', undefined)).models).toHaveLength(1);
    await scene.restart();
    expect((await call(scene.h, 'cooldowns.list', undefined)).models).toEqual([]);
    const res = await send(askAnthropic(scene.h, 'first/model-x'));
    expect(res.status).toBe(200);
    expect(first.requests).toHaveLength(2);
  });
});
