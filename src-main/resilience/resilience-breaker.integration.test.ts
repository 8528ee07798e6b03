import { afterEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection } from '../testing/start-leeway';
import {
  askAnthropic,
  call,
  connectionRow,
  createScene,
  providerId,
  providerRow,
  send,
  sleep,
} from './resilience-it.testkit';

/**
 * The provider circuit breaker (BRK) through the real proxy. Fakes listen on loopback, so their
 * providers get the `local` profile: OPEN at 2 failures, reset after 15 s (BRK-3).
 */
// These tests pin what the engines answer at once; the cooldown wait (CONC-7) has its own tests.
const scene = createScene({ cooldownWait: false });
afterEach(() => scene.cleanup());

const MODEL = 'claude-sonnet-4-5';
const status503 = { kind: 'status', status: 503 } as const;

async function solo(): Promise<{ up: FakeUpstream; provider: string }> {
  const up = await scene.fake('solo');
  await scene.start({ connections: [anthropicConnection('solo', up.url, { models: [MODEL] })] });
  return { up, provider: providerId('anthropic', up) };
}

describe('provider circuit breaker', () => {
  it('BRK-2/BRK-4/BRK-1: 503s up to the threshold open the breaker; the combo then skips that provider without calling it', async () => {
    const a = await scene.fake('a');
    const b = await scene.fake('b');
    const h = await scene.start({
      connections: [anthropicConnection('a', a.url, { priority: 1 }), anthropicConnection('b', b.url, { priority: 2 })],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'a', model: MODEL },
            { connection: 'b', model: MODEL },
          ],
        },
      ],
    });
    const pa = providerId('anthropic', a);
    a.enqueue(status503, status503);

    const one = await send(askAnthropic(h, 'main'));
    expect(one.headers.get('x-leeway-failover')).toBe('a=503');
    expect(await providerRow(h, pa)).toMatchObject({ state: 'CLOSED', failureCount: 1, profile: 'local' });

    const two = await send(askAnthropic(h, 'main'));
    expect(two.headers.get('x-leeway-failover')).toBe('a=503');
    const open = await providerRow(h, pa);
    expect(open).toMatchObject({ state: 'OPEN', failureCount: 2 });
    expect(open?.retryAfterMs).toBeGreaterThan(13_000);
    expect(open?.retryAfterMs).toBeLessThanOrEqual(15_000);
    // COOL-14: a provider-level failure does not cool the connection itself.
    expect((await connectionRow(h, 'a')).testStatus).toBe('active');

    const three = await send(askAnthropic(h, 'main'));
    expect(three.status).toBe(200);
    expect(three.headers.get('x-leeway-connection')).toBe('b');
    expect(three.headers.get('x-leeway-failover')).toBeNull();
    expect(a.requests).toHaveLength(2);
    // BRK-8: the healthy provider is reported too, closed and without failures.
    expect(await providerRow(h, providerId('anthropic', b))).toMatchObject({
      state: 'CLOSED',
      failureCount: 0,
      retryAfterMs: null,
    });
  });

  it('BRK-1/ROUTE-6: an open breaker on the only target answers 503 circuit_open with Retry-After', async () => {
    const { up } = await solo();
    const h = scene.h;
    up.enqueue(status503, status503);
    expect((await send(askAnthropic(h, MODEL))).status).toBe(503);
    expect((await send(askAnthropic(h, MODEL))).status).toBe(503);

    const res = await send(askAnthropic(h, MODEL));
    expect(res.status).toBe(503);
    expect(res.json.leeway?.code).toBe('all_targets_cooling_down');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(14);
    expect(retryAfter).toBeLessThanOrEqual(15);
    expect(res.json.leeway?.details?.excluded).toEqual([
      // Issue 24: the breaker's state rides along as the exclusion's detail.
      { connection: 'solo', model: MODEL, reason: 'circuit_open', retryAfterSeconds: retryAfter, detail: 'OPEN' },
    ]);
    expect(h.logs.some((l) => l.includes('solo=circuit_open:'))).toBe(true);
    expect(up.requests).toHaveLength(2);
  });

  it('BRK-2: 401, 403 and 429 never count for the breaker; 503 and a timeout do', async () => {
    const { up, provider } = await solo();
    const h = scene.h;
    await call(h, 'settings.update', { responseTimeoutMs: 1_000, streamHeadersTimeoutMs: 1_000 });
    for (const status of [429, 401, 403]) {
      up.enqueue({ kind: 'status', status });
      expect((await send(askAnthropic(h, MODEL))).status).toBe(status);
      // Account-level failures cool the connection; clear it so the next one reaches the upstream.
      await call(h, 'cooldowns.clear', { target: 'connection', connection: 'solo' });
    }
    expect(up.requests).toHaveLength(3);
    expect(await providerRow(h, provider)).toMatchObject({ state: 'CLOSED', failureCount: 0 });

    up.enqueue(status503);
    await send(askAnthropic(h, MODEL));
    // Had any of the three counted, the local threshold of 2 would have opened it by now.
    expect(await providerRow(h, provider)).toMatchObject({ state: 'CLOSED', failureCount: 1 });

    up.enqueue({ kind: 'hang' });
    const timedOut = await send(askAnthropic(h, MODEL));
    expect(timedOut.status).toBe(504);
    expect(await providerRow(h, provider)).toMatchObject({ state: 'OPEN', failureCount: 2 });
  });

  it('BRK-2: a client that gives up mid-request is not charged to the provider', async () => {
    const { up, provider } = await solo();
    const h = scene.h;
    up.enqueue({ kind: 'hang' }, { kind: 'hang' });
    for (let i = 1; i <= 2; i++) {
      const controller = new AbortController();
      const pending = fetch(`${h.url}/v1/messages`, {
        method: 'POST',
        signal: controller.signal,
        headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      }).catch((e: unknown) => e);
      await up.waitForRequests(i);
      controller.abort();
      await pending;
      await up.waitFor((u) => u.requests[i - 1]?.aborted === true);
    }
    expect(await providerRow(h, provider)).toMatchObject({ state: 'CLOSED', failureCount: 0 });
    expect((await connectionRow(h, 'solo')).testStatus).toBe('active');
  });

  it('BRK-6: failures that arrive while the breaker is open neither count nor extend the open window', async () => {
    const { up, provider } = await solo();
    const h = scene.h;
    const slow503 = { kind: 'delay' as const, ms: 300, then: status503 };
    up.enqueue(slow503, slow503, slow503, slow503);
    const answers = await Promise.all([1, 2, 3, 4].map(() => send(askAnthropic(h, MODEL))));
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503]);
    expect(up.requests).toHaveLength(4);
    const row = await providerRow(h, provider);
    expect(row).toMatchObject({ state: 'OPEN', failureCount: 2 });
    expect(row?.retryAfterMs).toBeGreaterThan(14_000);
  });

  it('BRK-3: the breaker threshold is a live resilience setting', async () => {
    const { up, provider } = await solo();
    const h = scene.h;
    await call(h, 'resilience.updateSettings', { breaker: { local: { failureThreshold: 3 } } });
    up.enqueue(status503, status503, status503);
    await send(askAnthropic(h, MODEL));
    await send(askAnthropic(h, MODEL));
    expect(await providerRow(h, provider)).toMatchObject({ state: 'DEGRADED', failureCount: 2 });
    await send(askAnthropic(h, MODEL));
    expect(await providerRow(h, provider)).toMatchObject({ state: 'OPEN', failureCount: 3 });
    expect(up.requests).toHaveLength(3);
  });

  it('BRK-7/BRK-6: an open breaker stays open across a restart until its reset time, then a probe closes it', async () => {
    const { up, provider } = await solo();
    let h = scene.h;
    await call(h, 'resilience.updateSettings', { breaker: { local: { resetTimeoutMs: 2_500 } } });
    up.enqueue(status503, status503);
    await send(askAnthropic(h, MODEL));
    await send(askAnthropic(h, MODEL));
    const opened = await providerRow(h, provider);
    expect(opened?.state).toBe('OPEN');

    h = await scene.restart();
    const restored = await providerRow(h, provider);
    expect(restored).toMatchObject({ state: 'OPEN', failureCount: 2 });
    expect(restored?.retryAfterMs).toBeGreaterThan(0);
    const blocked = await send(askAnthropic(h, MODEL));
    expect(blocked.status).toBe(503);
    expect(blocked.json.leeway?.details?.excluded?.[0]?.reason).toBe('circuit_open');
    expect(up.requests).toHaveLength(2);

    // BRK-6: no timer runs; the next read after the reset time lets a probe through.
    await sleep((restored?.retryAfterMs ?? 0) + 100);
    expect((await providerRow(h, provider))?.state).toBe('HALF_OPEN');
    const probe = await send(askAnthropic(h, MODEL));
    expect(probe.status).toBe(200);
    expect(up.requests).toHaveLength(3);
    expect(await providerRow(h, provider)).toMatchObject({ state: 'CLOSED', failureCount: 0 });

    // The closed state is what a further restart restores.
    h = await scene.restart();
    expect(await providerRow(h, provider)).toMatchObject({ state: 'CLOSED', failureCount: 0 });
  });
});
