import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { call, createScene, send } from '../resilience/resilience-it.testkit';
import type { FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';

/*
 * Issue 24 §3 through the real proxy: fake Anthropic upstreams report prompt-cache usage
 * (cache_read_input_tokens / cache_creation_input_tokens) as Claude does; a session pinned to
 * `a` has a warm 42 000-token cache there.
 */
const MODEL = 'claude-sonnet-4-5';
const SESSION = { 'x-claude-code-session-id': 'cache-sess' };
const CACHED = { input: 12, output: 5, cacheRead: 40_000, cacheWrite: 2_000 };
const scene = createScene();
afterEach(() => scene.cleanup());

function ask(h: RunningLeeway): Promise<Response> {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01', ...SESSION },
    body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

const limited = (seconds: number) => ({
  kind: 'status' as const,
  status: 429,
  headers: { 'retry-after': String(seconds) },
});

async function twoAccounts(): Promise<{ h: RunningLeeway; a: FakeUpstream; b: FakeUpstream }> {
  const a = await scene.fake('a');
  const b = await scene.fake('b');
  a.setDefault({ kind: 'ok', usage: CACHED });
  b.setDefault({ kind: 'ok', usage: CACHED });
  const h = await scene.start({
    connections: [
      anthropicConnection('a', a.url, { models: [MODEL], priority: 1 }),
      anthropicConnection('b', b.url, { models: [MODEL], priority: 2 }),
    ],
  });
  // The session's first turn: served by a, which now holds its 42 000-token cache.
  const first = await send(ask(h));
  expect(first.headers.get('x-leeway-connection')).toBe('a');
  return { h, a, b };
}

async function lastRow(h: RunningLeeway): Promise<RequestLogEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const [row] = await call(h, 'activity.list', { limit: 1 });
    if (row && row.id > 1) return row;
    if (Date.now() > deadline) throw new Error('no second activity row');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('cache-aware failover (issue 24 §3)', () => {
  it('ISSUE-24 AFF-6: the pinned account answers a 2 s rate limit while the cache there is warm: the request waits for it instead of moving', async () => {
    const { h, a, b } = await twoAccounts();
    a.enqueue(limited(2));
    const started = Date.now();
    const res = await send(ask(h));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('a');
    expect(res.headers.get('x-leeway-held')).toBe('cooldown');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(a.requests).toHaveLength(3);
    expect(b.requests).toHaveLength(0);
    const row = await lastRow(h);
    expect(row.cacheLostTokens ?? null).toBeNull();
  }, 20_000);

  it('ISSUE-24: a rate limit longer than the setting moves the session at once and records the warm cache it throws away (row, metrics, overview)', async () => {
    const { h, a, b } = await twoAccounts();
    a.enqueue(limited(60));
    const res = await send(ask(h));
    expect(res.headers.get('x-leeway-connection')).toBe('b');
    expect(res.headers.get('x-leeway-decision')).toBe('served=b; failed=a:429; cache-lost=a:42000');
    expect(b.requests).toHaveLength(1);
    const row = await lastRow(h);
    const decision = await call(h, 'activity.decision', { id: row.id });
    expect(decision.decision.cacheLost).toMatchObject({ connection: 'a', tokens: 42_000 });
    expect(row.connection).toBe('b');
    expect(row.cacheLostTokens).toBe(42_000);
    // Sonnet: rebuilding costs the cache-write price, reading it the cache-read price ($3.75 vs $0.30 per M).
    expect(row.cacheLostUsd).toBeCloseTo((42_000 * (3.75 - 0.3)) / 1e6, 6);
    const metrics = await (
      await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${h.adminToken}` } })
    ).text();
    expect(metrics).toMatch(/leeway_cache_tokens_lost_total\{connection="b"\} 42000/);
    const overview = await call(h, 'overview.series', { range: 'hour' });
    expect(overview.summary.cacheLostTokens).toBe(42_000);
  }, 20_000);

  it('ISSUE-24: a moved session goes back to its old account once that one is free again, while the cache there is warm', async () => {
    const { h, a } = await twoAccounts();
    a.enqueue(limited(60));
    expect((await send(ask(h))).headers.get('x-leeway-connection')).toBe('b');
    // Still cooling: the session stays on b.
    expect((await send(ask(h))).headers.get('x-leeway-connection')).toBe('b');
    await call(h, 'cooldowns.clear', { target: 'connection', connection: 'a' });
    const back = await send(ask(h));
    expect(back.headers.get('x-leeway-connection')).toBe('a');
    const row = await lastRow(h);
    // Going back throws away b's younger cache: that is recorded too, honestly.
    expect(row.connection).toBe('a');
    expect(row.cacheLostTokens).toBe(42_000);
  }, 20_000);

  it('ISSUE-24: with the setting at 0 the session moves at once even on a short rate limit', async () => {
    const { h, a, b } = await twoAccounts();
    await call(h, 'settings.update', { cacheWaitMs: 0 });
    a.enqueue(limited(2));
    const res = await send(ask(h));
    expect(res.headers.get('x-leeway-connection')).toBe('b');
    expect(res.headers.get('x-leeway-held')).toBeNull();
    expect(b.requests).toHaveLength(1);
  }, 20_000);

  it('ISSUE-24: without a warm cache (no cache usage reported) a short rate limit fails over as before', async () => {
    const a = await scene.fake('a');
    const b = await scene.fake('b');
    const h = await scene.start({
      connections: [
        anthropicConnection('a', a.url, { models: [MODEL], priority: 1 }),
        anthropicConnection('b', b.url, { models: [MODEL], priority: 2 }),
      ],
    });
    expect((await send(ask(h))).headers.get('x-leeway-connection')).toBe('a');
    a.enqueue(limited(2));
    expect((await send(ask(h))).headers.get('x-leeway-connection')).toBe('b');
  }, 20_000);
});
