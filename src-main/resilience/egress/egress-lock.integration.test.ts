import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningLeeway } from '../../testing/start-leeway';
import { anthropicConnection } from '../../testing/start-leeway';
import { askAnthropic, call, connectionRow, createScene, send } from '../resilience-it.testkit';
import { PROBE_URL, startFakeEgress, type FakeEgress } from './fake-egress.testkit';

/**
 * The egress-IP lock through the real proxy: three connections of one IP-bucketed upstream, two
 * leaving through one fake proxy (one IP), the third through another. The fakes listen on loopback,
 * so the test names their service (`127.0.0.1`) in the operator's allowlist env (EGRESS-9).
 */
const scene = createScene({ cooldownWait: false });
const ways: FakeEgress[] = [];
const ENV = 'LEEWAY_EGRESS_IP_LOCK_PROVIDERS';
let saved: string | undefined;
beforeEach(() => {
  saved = process.env[ENV];
  process.env[ENV] = '127.0.0.1';
});
afterEach(async () => {
  if (saved === undefined) delete process.env[ENV];
  else process.env[ENV] = saved;
  await scene.cleanup();
  await Promise.all(ways.splice(0).map((w) => w.close()));
});

const MODEL = 'claude-sonnet-4-5';
const single = (name: string) => ({ name: `via-${name}`, targets: [{ connection: name, model: MODEL }] });

/** Polls an async condition (the probe runs after the answer); fails the test after 5 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function threeConnections(options: { probe: boolean; combo?: boolean }) {
  const shared = await startFakeEgress('198.51.100.7');
  const other = await startFakeEgress('203.0.113.40');
  ways.push(shared, other);
  const a = await scene.fake('a');
  const b = await scene.fake('b');
  const c = await scene.fake('c');
  const h = await scene.start({
    connections: [
      anthropicConnection('a', a.url, { outboundProxyUrl: shared.proxyUrlWithAuth('user', 'pa55word') }),
      anthropicConnection('b', b.url, { outboundProxyUrl: shared.proxyUrl }),
      anthropicConnection('c', c.url, { outboundProxyUrl: other.proxyUrl }),
    ],
    combos: [
      single('a'),
      single('b'),
      single('c'),
      ...(options.combo
        ? [{ name: 'all', targets: ['a', 'b', 'c'].map((connection) => ({ connection, model: MODEL })) }]
        : []),
    ],
  });
  if (options.probe) await call(h, 'settings.update', { egressIpProbeUrl: PROBE_URL });
  return { a, b, c, h };
}

/** One served request per connection, so each has request-log rows (and, with the probe, an IP). */
async function warmUp(h: RunningLeeway) {
  for (const name of ['a', 'b', 'c']) expect((await send(askAnthropic(h, `via-${name}`))).status).toBe(200);
}

async function egressIps(h: RunningLeeway): Promise<Record<string, string | undefined>> {
  const list = await call(h, 'connections.list', undefined);
  return Object.fromEntries(list.map((v) => [v.name, v.egressIp]));
}

describe('egress-IP lock through the proxy', () => {
  it('EGRESS-2/EGRESS-3/EGRESS-5: a 429 of the IP-bucketed family cools every sibling on the same egress IP, not the one on another IP', async () => {
    const { a, b, h } = await threeConnections({ probe: true });
    await warmUp(h);
    await until(async () => Object.values(await egressIps(h)).every((ip) => ip !== undefined));
    expect(await egressIps(h)).toEqual({ a: '198.51.100.7', b: '198.51.100.7', c: '203.0.113.40' });
    // Rows written from now on carry the recorded IP; reading the activity flushes them (EGRESS-4 reads history).
    await warmUp(h);
    const rows = await call(h, 'activity.list', { limit: 10 });
    expect(rows.length).toBeGreaterThanOrEqual(6);

    a.enqueue({ kind: 'status', status: 429 });
    expect((await send(askAnthropic(h, 'via-a'))).status).toBe(429);

    const [rowA, rowB, rowC] = [await connectionRow(h, 'a'), await connectionRow(h, 'b'), await connectionRow(h, 'c')];
    expect(rowA.testStatus).toBe('unavailable');
    expect(rowA.lastErrorType).toBe('rate_limit_exceeded');
    expect(rowB).toMatchObject({
      testStatus: 'unavailable',
      terminal: false,
      lastError: 'Shared egress IP quota exhausted (127.0.0.1)',
      lastErrorType: 'rate_limit_exceeded',
      errorCode: '429',
    });
    expect(rowB.rateLimitedUntil).toBe(rowA.rateLimitedUntil);
    expect(rowC).toMatchObject({ testStatus: 'active', lastError: null, rateLimitedUntil: null });
    // The locked sibling is skipped without an upstream call; the other IP still serves.
    const bCalls = b.requests.length;
    expect((await send(askAnthropic(h, 'via-b'))).status).not.toBe(200);
    expect(b.requests).toHaveLength(bCalls);
    expect((await send(askAnthropic(h, 'via-c'))).status).toBe(200);
  });

  it('EGRESS-7/EGRESS-2: inside a combo the locked sibling is skipped before rotation tries it; the other IP serves', async () => {
    const { a, b, c, h } = await threeConnections({ probe: true, combo: true });
    await warmUp(h);
    await until(async () => {
      const ips = await egressIps(h);
      return ips.a !== undefined && ips.b !== undefined && ips.c !== undefined;
    });
    await warmUp(h);
    await call(h, 'activity.list', { limit: 10 });
    const bCalls = b.requests.length;
    const cCalls = c.requests.length;
    a.enqueue({ kind: 'status', status: 429 });
    const res = await send(askAnthropic(h, 'all'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('c');
    expect(b.requests).toHaveLength(bCalls);
    expect(c.requests).toHaveLength(cCalls + 1);
    expect((await connectionRow(h, 'b')).lastError).toBe('Shared egress IP quota exhausted (127.0.0.1)');
  });

  it('EGRESS-6: the family answer is a connection cooldown, not a model lockout', async () => {
    const { a, h } = await threeConnections({ probe: false });
    a.enqueue({ kind: 'status', status: 429 });
    expect((await send(askAnthropic(h, 'via-a'))).status).toBe(429);
    const snap = await call(h, 'cooldowns.list', undefined);
    expect(snap.models.filter((m) => m.connection === 'a')).toEqual([]);
    expect((await connectionRow(h, 'a')).testStatus).toBe('unavailable');
  });

  it('EGRESS-4: with the probe off no IP is known, so only the failing connection cools', async () => {
    const { a, h } = await threeConnections({ probe: false });
    await warmUp(h);
    await call(h, 'activity.list', { limit: 10 });
    expect(await egressIps(h)).toEqual({ a: undefined, b: undefined, c: undefined });
    a.enqueue({ kind: 'status', status: 429 });
    expect((await send(askAnthropic(h, 'via-a'))).status).toBe(429);
    expect((await connectionRow(h, 'a')).testStatus).toBe('unavailable');
    expect((await connectionRow(h, 'b')).testStatus).toBe('active');
    expect((await connectionRow(h, 'c')).testStatus).toBe('active');
  });

  it('EGRESS-1: the proxy URL shows masked in every view; the credentials stay in the core', async () => {
    const { h } = await threeConnections({ probe: false });
    const list = await call(h, 'connections.list', undefined);
    const a = list.find((v) => v.name === 'a');
    expect(a?.outboundProxyUrl).toMatch(/^http:\/\/\*\*\*@127\.0\.0\.1:\d+$/);
    expect(JSON.stringify(list)).not.toContain('pa55word');
  });
});
