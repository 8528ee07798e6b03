import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src-shared/contract/events';
import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import { anthropicConnection, openaiConnection } from '../testing/start-leeway';
import {
  askAnthropic,
  askOpenAI,
  call,
  connectionRow,
  createScene,
  send,
  sleep,
  snapshot,
  until,
} from './resilience-it.testkit';

/** Connection cooldown (COOL), the all-cooling answer (ROUTE-6..8, PROD-17) and cooldown events, through the real proxy. */
// These tests pin what the engines answer at once; the cooldown wait (CONC-7) has its own tests.
const scene = createScene({ cooldownWait: false });
afterEach(() => scene.cleanup());

async function comboOfTwo() {
  const first = await scene.fake('first');
  const second = await scene.fake('second');
  const h = await scene.start({
    connections: [
      anthropicConnection('first', first.url, { priority: 1 }),
      anthropicConnection('second', second.url, { priority: 2 }),
    ],
    combos: [
      {
        name: 'main',
        targets: [
          { connection: 'first', model: 'claude-sonnet-4-5' },
          { connection: 'second', model: 'claude-sonnet-4-5' },
        ],
      },
    ],
  });
  return { first, second, h };
}

describe('connection cooldown through the proxy', () => {
  it("COOL-4/COOL-1: a 429 with retry-after cools only that connection for the upstream's time; the combo fails over and then skips it", async () => {
    const { first, second, h } = await comboOfTwo();
    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const before = Date.now();
    const res = await send(askAnthropic(h, 'main'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('second');
    expect(res.headers.get('x-leeway-failover')).toBe('first=429');

    const row = await connectionRow(h, 'first');
    expect(row.testStatus).toBe('unavailable');
    expect(row.rateLimitedUntil).not.toBeNull();
    expect(Math.abs((row.rateLimitedUntil ?? 0) - (before + 120_000))).toBeLessThan(2_000);
    expect(row.lastError).toEqual(expect.any(String));
    expect(row.lastErrorType).toBe('rate_limit_exceeded');
    expect(row.errorCode).toBe('429');
    expect(row.retryAfterMs).toBeGreaterThan(115_000);
    // COOL-1: the other connection of the combo is untouched.
    expect((await connectionRow(h, 'second')).testStatus).toBe('active');

    // COOL-13: the cooling connection is skipped without a call to its upstream.
    const next = await send(askAnthropic(h, 'main'));
    expect(next.status).toBe(200);
    expect(next.headers.get('x-leeway-connection')).toBe('second');
    expect(next.headers.get('x-leeway-failover')).toBeNull();
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(2);

    // An operator clear makes it selectable at once.
    expect(await call(h, 'cooldowns.clear', { target: 'connection', connection: 'first' })).toEqual({ cleared: 1 });
    const cleared = await connectionRow(h, 'first');
    expect(cleared.testStatus).toBe('active');
    expect(cleared.retryAfterMs).toBeNull();
    const back = await send(askAnthropic(h, 'main'));
    expect(back.headers.get('x-leeway-connection')).toBe('first');
    expect(first.requests).toHaveLength(2);
    // COOL-12: the success clears the remaining error fields.
    expect((await connectionRow(h, 'first')).lastError).toBeNull();
  });

  it('COOL-5: without an upstream hint a 429 cools by the computed backoff (3 s base for the loopback profile)', async () => {
    const { first, h } = await comboOfTwo();
    first.enqueue({ kind: 'status', status: 429 });
    const before = Date.now();
    await send(askAnthropic(h, 'main'));
    const row = await connectionRow(h, 'first');
    expect(row.backoffLevel).toBe(1);
    expect(Math.abs((row.rateLimitedUntil ?? 0) - (before + 3_000))).toBeLessThan(1_000);
  });
  it('COOL-6: simultaneous failures on one connection raise its backoff level exactly once', async () => {
    const only = await scene.fake('only');
    const h = await scene.start({
      connections: [anthropicConnection('only', only.url, { models: ['claude-sonnet-4-5'] })],
    });
    const slow429 = { kind: 'delay' as const, ms: 300, then: { kind: 'status' as const, status: 429 } };
    only.enqueue(slow429, slow429, slow429, slow429);
    const answers = await Promise.all([1, 2, 3, 4].map(() => send(askAnthropic(h, 'claude-sonnet-4-5'))));
    expect(answers.map((a) => a.status)).toEqual([429, 429, 429, 429]);
    expect(only.requests).toHaveLength(4);
    const row = await connectionRow(h, 'only');
    expect(row.backoffLevel).toBe(1);
    expect(row.retryAfterMs).toBeLessThanOrEqual(3_000);
  });

  it('COOL-15: a connection with disableCooling keeps serving after a 429', async () => {
    const only = await scene.fake('only');
    const h = await scene.start({
      connections: [anthropicConnection('only', only.url, { models: ['claude-sonnet-4-5'], disableCooling: true })],
    });
    only.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    expect((await send(askAnthropic(h, 'claude-sonnet-4-5'))).status).toBe(429);
    const row = await connectionRow(h, 'only');
    expect(row.rateLimitedUntil).toBeNull();
    expect(row.testStatus).toBe('active');
    expect((await send(askAnthropic(h, 'claude-sonnet-4-5'))).status).toBe(200);
    expect(only.requests).toHaveLength(2);
  });
});

describe('every target excluded before dispatch', () => {
  it('ROUTE-6/ROUTE-9/PROD-17/ROUTE-7: all targets cooling (diagnostics built from the resolution exclusions) gives an Anthropic-format 503 with the earliest Retry-After and every exclusion', async () => {
    const { first, second, h } = await comboOfTwo();
    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    second.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '60' } });
    const last = await send(askAnthropic(h, 'main'));
    // The last target's own answer is relayed; only afterwards are both cooling.
    expect(last.status).toBe(429);

    const res = await send(askAnthropic(h, 'main'));
    expect(res.status).toBe(503);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(59);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.json.type).toBe('error');
    expect(res.json.error).toMatchObject({
      type: 'overloaded_error',
      message: expect.stringContaining('cooling down'),
    });
    expect(res.json.leeway?.code).toBe('all_targets_cooling_down');
    const excluded = res.json.leeway?.details?.excluded ?? [];
    expect(excluded).toHaveLength(2);
    const byName = new Map(excluded.map((e) => [e.connection, e]));
    expect(byName.get('first')).toMatchObject({ reason: 'unavailable', model: 'claude-sonnet-4-5' });
    expect(byName.get('first')?.retryAfterSeconds).toBeGreaterThanOrEqual(118);
    expect(byName.get('second')).toMatchObject({ reason: 'unavailable' });
    expect(byName.get('second')?.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);

    const line = h.logs.find((l) =>
      l.startsWith('[COMBO] Weighted selection: every target excluded before dispatch — '),
    );
    expect(line).toBeDefined();
    expect(line).toMatch(/first=unavailable:1(19|20)s/);
    expect(line).toMatch(/second=unavailable:(59|60)s/);
  });

  it('ROUTE-6/PROD-17: an OpenAI client gets the same answer in its own error format', async () => {
    const a = await scene.fake('oa', 'openai');
    const b = await scene.fake('ob', 'openai');
    const h = await scene.start({
      connections: [openaiConnection('oa', a.url, { priority: 1 }), openaiConnection('ob', b.url, { priority: 2 })],
      combos: [
        {
          name: 'gpt-pool',
          targets: [
            { connection: 'oa', model: 'gpt-4o' },
            { connection: 'ob', model: 'gpt-4o' },
          ],
        },
      ],
    });
    a.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '90' } });
    b.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    expect((await send(askOpenAI(h, 'gpt-pool'))).status).toBe(429);

    const res = await send(askOpenAI(h, 'gpt-pool'));
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect(res.json.type).toBeUndefined();
    expect(res.json.error).toMatchObject({ type: 'server_error', code: 'all_targets_cooling_down', param: null });
    expect(res.json.leeway?.details?.excluded?.map((e) => [e.connection, e.reason])).toEqual([
      ['oa', 'unavailable'],
      ['ob', 'unavailable'],
    ]);
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
  });

  it('ROUTE-8: the only connection disabled answers 404 no_executable_targets, without Retry-After or a cooling log line', async () => {
    const up = await scene.fake('off');
    const h = await scene.start({
      connections: [anthropicConnection('off', up.url, { models: ['claude-sonnet-4-5'], enabled: false })],
    });
    const res = await send(askAnthropic(h, 'claude-sonnet-4-5'));
    expect(res.status).toBe(404);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.json.leeway?.code).toBe('no_executable_targets');
    expect(res.json.leeway?.details?.excluded).toEqual([
      { connection: 'off', model: null, reason: 'disabled', retryAfterSeconds: null },
    ]);
    expect(up.requests).toHaveLength(0);
    expect(h.logs.some((l) => l.includes('every target excluded before dispatch'))).toBe(false);
  });
});

describe('model lockout through the proxy', () => {
  async function lockoutScene() {
    const x = await scene.fake('x');
    const y = await scene.fake('y');
    const h = await scene.start({
      connections: [
        anthropicConnection('x', x.url, { priority: 1, models: ['model-a', 'model-b'] }),
        anthropicConnection('y', y.url, { priority: 2, models: ['model-a'] }),
      ],
    });
    return { x, y, h };
  }

  it('LOCK-3/LOCK-1/LOCK-8: with lockout on, a 404 locks only that model of that connection until re-enabled over REST', async () => {
    const { x, y, h } = await lockoutScene();
    await call(h, 'resilience.updateSettings', { modelLockout: { enabled: true } });
    x.enqueue({ kind: 'status', status: 404 });
    const first = await send(askAnthropic(h, 'model-a'));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-leeway-failover')).toBe('x=404');
    expect(first.headers.get('x-leeway-connection')).toBe('y');

    // Model A skips x without calling it; the connection itself is not cooled (COOL-14).
    const again = await send(askAnthropic(h, 'model-a'));
    expect(again.headers.get('x-leeway-connection')).toBe('y');
    expect(again.headers.get('x-leeway-failover')).toBeNull();
    expect(x.requests).toHaveLength(1);
    expect(y.requests).toHaveLength(2);
    expect((await connectionRow(h, 'x')).testStatus).toBe('active');

    // Model B on the same connection still reaches it.
    const other = await send(askAnthropic(h, 'model-b'));
    expect(other.status).toBe(200);
    expect(other.headers.get('x-leeway-connection')).toBe('x');
    expect((x.requests[1]?.json as { model: string }).model).toBe('model-b');

    const listed = await fetch(`${h.url}/api/resilience/model-cooldowns`, {
      headers: { authorization: `Bearer ${h.adminToken}` },
    });
    const body = (await listed.json()) as { items: CooldownSnapshot['models'] };
    expect(listed.status).toBe(200);
    expect(body.items).toHaveLength(1);
    const item = body.items[0];
    expect(item).toMatchObject({
      provider: `anthropic@${x.url}`,
      connection: 'x',
      model: 'model-a',
      reason: 'not_found',
      failureCount: 1,
    });
    expect(Math.abs((item?.expiresAt ?? 0) - (Date.now() + 120_000))).toBeLessThan(3_000);

    const removed = await fetch(`${h.url}/api/resilience/model-cooldowns`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: item?.provider, connection: 'x', model: 'model-a' }),
    });
    expect(await removed.json()).toEqual({ ok: true, removed: 1 });
    expect((await snapshot(h)).models).toEqual([]);
    const reenabled = await send(askAnthropic(h, 'model-a'));
    expect(reenabled.headers.get('x-leeway-connection')).toBe('x');
    expect(x.requests).toHaveLength(3);
  });

  it('LOCK-3/ROUTE-6: a locked model on its only connection answers 503 model_lockout while another model still runs', async () => {
    const x = await scene.fake('x');
    const h = await scene.start({ connections: [anthropicConnection('x', x.url, { models: ['model-a', 'model-b'] })] });
    await call(h, 'resilience.updateSettings', { modelLockout: { enabled: true } });
    x.enqueue({ kind: 'status', status: 404 });
    expect((await send(askAnthropic(h, 'model-a'))).status).toBe(404);
    const locked = await send(askAnthropic(h, 'model-a'));
    expect(locked.status).toBe(503);
    expect(locked.json.leeway?.code).toBe('all_targets_cooling_down');
    expect(locked.json.leeway?.details?.excluded).toEqual([
      {
        connection: 'x',
        model: 'model-a',
        reason: 'model_lockout',
        retryAfterSeconds: expect.any(Number),
        // Issue 24: the lockout's own reason rides along as the exclusion's detail.
        detail: 'not_found',
      },
    ]);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(110);
    expect((await send(askAnthropic(h, 'model-b'))).status).toBe(200);
    expect(x.requests).toHaveLength(2);
  });

  it('LOCK-9: with lockout off (the default) a 404 locks nothing', async () => {
    const { x, h } = await lockoutScene();
    x.enqueue({ kind: 'status', status: 404 });
    const first = await send(askAnthropic(h, 'model-a'));
    expect(first.headers.get('x-leeway-failover')).toBe('x=404');
    expect((await snapshot(h)).models).toEqual([]);
    const again = await send(askAnthropic(h, 'model-a'));
    expect(again.headers.get('x-leeway-connection')).toBe('x');
    expect(x.requests).toHaveLength(2);
  });
});

describe('terminal states and persistence', () => {
  const BAN_BODY = {
    type: 'error',
    error: { type: 'permission_error', message: 'This organization has been disabled.' },
  };

  async function bannedScene() {
    const acct = await scene.fake('acct');
    const spare = await scene.fake('spare');
    const h = await scene.start({
      connections: [
        anthropicConnection('acct', acct.url, { priority: 1 }),
        anthropicConnection('spare', spare.url, { priority: 2 }),
      ],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'acct', model: 'claude-sonnet-4-5' },
            { connection: 'spare', model: 'claude-sonnet-4-5' },
          ],
        },
      ],
    });
    acct.enqueue({ kind: 'status', status: 403, body: BAN_BODY });
    const res = await send(askAnthropic(h, 'main'));
    expect(res.headers.get('x-leeway-failover')).toBe('acct=403');
    return { acct, spare, h };
  }

  async function expectBanned(name: string) {
    const row = await connectionRow(scene.h, name);
    expect(row.testStatus).toBe('banned');
    expect(row.terminal).toBe(true);
  }

  it('COOL-7/COOL-10: a ban survives restart, clear-all and DELETE cooldowns; connections.reset lifts it', async () => {
    const { acct } = await bannedScene();
    await expectBanned('acct');

    const h = await scene.restart();
    await expectBanned('acct');
    const skipped = await send(askAnthropic(h, 'main'));
    expect(skipped.headers.get('x-leeway-connection')).toBe('spare');
    expect(acct.requests).toHaveLength(1);

    await call(h, 'cooldowns.clear', { target: 'all' });
    await expectBanned('acct');
    const del = await fetch(`${h.url}/api/resilience/cooldowns`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${h.adminToken}` },
    });
    expect(del.status).toBe(200);
    await expectBanned('acct');

    // An upsert that keeps the stored credential is no new credential.
    await call(h, 'connections.upsert', { name: 'acct', kind: 'anthropic', baseUrl: acct.url, priority: 1 });
    await expectBanned('acct');

    const reset = await call(h, 'connections.reset', { name: 'acct' });
    expect(reset.name).toBe('acct');
    const row = await connectionRow(h, 'acct');
    expect(row.testStatus).toBe('active');
    expect(row.lastError).toBeNull();
    expect((await send(askAnthropic(h, 'main'))).headers.get('x-leeway-connection')).toBe('acct');
    // And it stays reset after another restart.
    await scene.restart();
    expect((await connectionRow(scene.h, 'acct')).testStatus).toBe('active');
  });

  it('COOL-10: a new credential via connections.upsert lifts the ban', async () => {
    const { acct, h } = await bannedScene();
    await expectBanned('acct');
    await call(h, 'connections.upsert', {
      name: 'acct',
      kind: 'anthropic',
      baseUrl: acct.url,
      priority: 1,
      secret: { type: 'api-key', apiKey: 'sk-ant-brand-new-key-1111' },
    });
    expect((await connectionRow(h, 'acct')).testStatus).toBe('active');
    const res = await send(askAnthropic(h, 'main'));
    expect(res.headers.get('x-leeway-connection')).toBe('acct');
    expect(acct.requests.at(-1)?.headers['x-api-key']).toBe('sk-ant-brand-new-key-1111');
  });

  it('COOL-8: three consecutive request refusals ban the connection; the first two only cool it', async () => {
    const acct = await scene.fake('acct');
    const h = await scene.start({
      connections: [anthropicConnection('acct', acct.url, { models: ['claude-sonnet-4-5'] })],
    });
    // Shortest refusal cooldowns the settings allow, so the streak fits in a test.
    await call(h, 'resilience.updateSettings', {
      cooldown: { requestRejectedCooldownMs: 1_000, requestRejectedRepeatCooldownMs: 1_000 },
    });
    const refusal = {
      kind: 'status' as const,
      status: 403,
      body: { type: 'error', error: { type: 'permission_error', message: 'Request not allowed' } },
    };
    acct.enqueue(refusal, refusal, refusal);
    for (const n of [1, 2]) {
      expect((await send(askAnthropic(h, 'claude-sonnet-4-5'))).status).toBe(403);
      const row = await connectionRow(h, 'acct');
      expect(row.testStatus, `refusal ${n}`).toBe('unavailable');
      expect(row.lastErrorType).toBe('request_rejected');
      const cooling = await send(askAnthropic(h, 'claude-sonnet-4-5'));
      expect(cooling.status).toBe(503);
      await sleep((row.retryAfterMs ?? 0) + 50);
    }
    expect((await send(askAnthropic(h, 'claude-sonnet-4-5'))).status).toBe(403);
    expect((await connectionRow(h, 'acct')).testStatus).toBe('banned');
    expect(acct.requests).toHaveLength(3);
  });

  it('COOL-2/COOL-11: a transient cooldown survives a restart with its fields', async () => {
    const only = await scene.fake('only');
    let h = await scene.start({
      connections: [anthropicConnection('only', only.url, { models: ['claude-sonnet-4-5'] })],
    });
    only.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '300' } });
    expect((await send(askAnthropic(h, 'claude-sonnet-4-5'))).status).toBe(429);
    const before = await connectionRow(h, 'only');

    h = await scene.restart();
    const after = await connectionRow(h, 'only');
    expect(after).toMatchObject({
      testStatus: 'unavailable',
      rateLimitedUntil: before.rateLimitedUntil,
      lastError: before.lastError,
      errorCode: '429',
    });
    const res = await send(askAnthropic(h, 'claude-sonnet-4-5'));
    expect(res.status).toBe(503);
    expect(res.json.leeway?.code).toBe('all_targets_cooling_down');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(290);
    expect(only.requests).toHaveLength(1);
  });
});

describe('cooldown events', () => {
  it('PROD-6: cooldowns.changed carries a fresh snapshot after a failure and after a clear', async () => {
    const { first, h } = await comboOfTwo();
    const seen: CooldownSnapshot[] = [];
    const unsubscribe = h.core.events.subscribe((e: CoreEvent) => {
      if (e.type === 'cooldowns.changed') seen.push(e.payload.snapshot);
    });
    try {
      first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
      await send(askAnthropic(h, 'main'));
      const cooling = (s: CooldownSnapshot) =>
        s.connections.find((c) => c.name === 'first')?.testStatus === 'unavailable';
      await until(() => seen.some(cooling), 'a cooling snapshot');
      const count = seen.length;

      await call(h, 'cooldowns.clear', { target: 'connection', connection: 'first' });
      await until(() => seen.length > count, 'an event after the clear');
      const last = seen.at(-1);
      expect(last?.connections.find((c) => c.name === 'first')).toMatchObject({
        testStatus: 'active',
        rateLimitedUntil: null,
        retryAfterMs: null,
      });
    } finally {
      unsubscribe();
    }
  });
});
