import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src-shared/contract/events';
import type { CreatedLocalKey } from '../../../src-shared/domain/local-key';
import { reservePort } from '../fake-upstream';
import type { RunningLeeway } from '../start-leeway';
import { useClientHarness } from './client-harness';

/*
 * PROD-18: connection secrets and the plain local key go upstream (secrets) or stay with the
 * client (key), and nowhere else: not in answers, headers, logs, admin answers, events or the
 * database file. Drives ok, failing, unknown-model and bad-key requests, then collects everything.
 */
const harness = useClientHarness();

const SECRETS = {
  anthropicKey: 'sk-ant-SECRET-anthropic-7f3a9c2e1b6d',
  oauthAccess: 'oat-SECRET-access-5d8e2a7c4f0b',
  oauthRefresh: 'ort-SECRET-refresh-9b1c6e3a2d7e',
  openaiKey: 'sk-oai-SECRET-openai-3e7b1d9f5a2c',
  deadKey: 'sk-ant-SECRET-dead-2c4e6a8b0d1f',
  /** Set later through the contract (as the UI would), not the config file. */
  contractKey: 'sk-ant-SECRET-contract-4a6c8e0b2d3f',
  contractAccess: 'oat-SECRET-contract-access-8d0f2b4c6e7a',
  contractRefresh: 'ort-SECRET-contract-refresh-1b3d5f7a9c0e',
} as const;

interface Seen {
  what: string;
  text: string;
}

function findLeaks(seen: readonly Seen[], needles: readonly string[]): string[] {
  const leaks: string[] = [];
  for (const { what, text } of seen) {
    for (const needle of needles) if (text.includes(needle)) leaks.push(`${what} contains ${needle}`);
  }
  return leaks;
}

function headerText(headers: Headers): string {
  return [...headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
}

describe('secrets never leak', () => {
  it('PROD-18: no answer, header, log line, admin answer, event or database byte holds a connection secret or the plain local key', async () => {
    const ant = await harness.upstream({ format: 'anthropic', name: 'ant', apiKey: SECRETS.anthropicKey });
    const sub = await harness.upstream({ format: 'anthropic', name: 'sub', apiKey: SECRETS.oauthAccess });
    const oai = await harness.upstream({ format: 'openai', name: 'oai', apiKey: SECRETS.openaiKey });
    const extra = await harness.upstream({ format: 'anthropic', name: 'extra', apiKey: SECRETS.contractKey });
    const deadUrl = `http://127.0.0.1:${await reservePort()}`;
    const h: RunningLeeway = await harness.leeway({
      connections: [
        {
          name: 'ant',
          kind: 'anthropic',
          baseUrl: ant.url,
          apiKey: SECRETS.anthropicKey,
          models: ['claude-sonnet-4-6'],
        },
        {
          name: 'sub',
          kind: 'claude-oauth',
          baseUrl: sub.url,
          accessToken: SECRETS.oauthAccess,
          refreshToken: SECRETS.oauthRefresh,
          expiresAt: 4_102_444_800_000,
          models: ['claude-opus-4-7'],
        },
        {
          name: 'oai',
          kind: 'openai-compatible',
          baseUrl: `${oai.url}/v1`,
          apiKey: SECRETS.openaiKey,
          models: ['gpt-4o'],
        },
        { name: 'dead', kind: 'anthropic', baseUrl: deadUrl, apiKey: SECRETS.deadKey, models: ['claude-dead-1'] },
      ],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'ant', model: 'claude-sonnet-4-6' },
            { connection: 'sub', model: 'claude-opus-4-7' },
          ],
        },
      ],
    });

    // Everything the core pushes, in process and through the HTTP event door.
    const events: CoreEvent[] = [];
    const unsubscribe = h.core.events.subscribe((event) => events.push(event));
    const sseAbort = new AbortController();
    const sse = await fetch(`${h.url}/api/events`, {
      headers: { authorization: `Bearer ${h.adminToken}` },
      signal: sseAbort.signal,
    });
    expect(sse.status).toBe(200);
    let sseText = '';
    const sseDone = (async () => {
      const reader = sse.body?.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const part = await reader?.read();
          if (!part || part.done) break;
          sseText += decoder.decode(part.value, { stream: true });
        }
      } catch {
        // Aborted at the end of the test.
      }
    })();

    const seen: Seen[] = [];
    const statuses: Record<string, number> = {};
    const call = async (
      what: string,
      path: string,
      init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
    ) => {
      const res = await fetch(`${h.url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { 'content-type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      statuses[what] = res.status;
      seen.push(
        { what: `${what}: response headers`, text: headerText(res.headers) },
        { what: `${what}: response body`, text },
      );
      return { res, text };
    };
    const anthropicAs = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' });
    const anthropic = anthropicAs(h.key);
    const openai = { authorization: `Bearer ${h.key}` };
    const ask = (model: string, more: Record<string, unknown> = {}) => ({
      model,
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
      ...more,
    });
    const chat = (model: string, more: Record<string, unknown> = {}) => ({
      model,
      messages: [{ role: 'user', content: 'hi' }],
      ...more,
    });

    // Successful traffic over every kind of connection.
    await call('anthropic ok', '/v1/messages', { headers: anthropic, body: ask('claude-sonnet-4-6') });
    await call('anthropic stream', '/v1/messages?beta=true', {
      headers: anthropic,
      body: ask('claude-sonnet-4-6', { stream: true }),
    });
    await call('oauth stream', '/v1/messages', { headers: anthropic, body: ask('claude-opus-4-7', { stream: true }) });
    await call('openai ok', '/v1/chat/completions', { headers: openai, body: chat('gpt-4o') });
    await call('openai stream', '/v1/chat/completions', {
      headers: openai,
      body: chat('gpt-4o', { stream: true, stream_options: { include_usage: true } }),
    });
    await call('count tokens', '/v1/messages/count_tokens', { headers: anthropic, body: ask('claude-sonnet-4-6') });
    await call('anthropic models', '/v1/models', { headers: anthropic });
    await call('openai models', '/v1/models', { headers: openai });
    await call('health', '/health');

    // Failing upstreams: relayed errors, failover, exhausted combo, unreachable connection.
    ant.enqueue({ kind: 'status', status: 401 });
    await call('upstream 401', '/v1/messages', { headers: anthropic, body: ask('claude-sonnet-4-6') });
    // The 401 cooled the connection (COOL) with its error recorded; the panel data must not leak either.
    seen.push({
      what: 'cooldowns.list answer',
      text: JSON.stringify(await h.core.router.call('cooldowns.list', undefined)),
    });
    await h.core.router.call('cooldowns.clear', { target: 'all' });
    ant.enqueue({ kind: 'status', status: 500 });
    const failedOver = await call('combo failover', '/v1/messages', {
      headers: anthropic,
      body: ask('main', { stream: true }),
    });
    ant.enqueue({ kind: 'status', status: 500 });
    sub.enqueue({ kind: 'status', status: 401 });
    await call('combo exhausted', '/v1/messages', { headers: anthropic, body: ask('main') });
    oai.enqueue({ kind: 'status', status: 500 });
    await call('openai 500', '/v1/chat/completions', { headers: openai, body: chat('gpt-4o', { stream: true }) });
    await call('unreachable', '/v1/messages', { headers: anthropic, body: ask('claude-dead-1') });
    await call('connection/model', '/v1/messages', { headers: anthropic, body: ask('sub/claude-opus-4-7') });

    // Refusals by Leeway itself.
    await call('unknown model', '/v1/messages', { headers: anthropic, body: ask('claude-nope') });
    await call('unknown model openai', '/v1/chat/completions', { headers: openai, body: chat('gpt-nope') });
    await call('bad key', '/v1/messages', {
      headers: anthropicAs('lw-wrong-key-0000000000'),
      body: ask('claude-sonnet-4-6'),
    });
    await call('bad key openai', '/v1/chat/completions', {
      headers: { authorization: 'Bearer lw-wrong-key-0000000000' },
      body: chat('gpt-4o'),
    });
    await call('no key', '/v1/messages', {
      headers: { 'anthropic-version': '2023-06-01' },
      body: ask('claude-sonnet-4-6'),
    });
    await call('bad json', '/v1/messages', { headers: anthropic, body: '{not json' });
    await call('wrong method', '/v1/messages', { method: 'GET', headers: anthropic });
    await call('unknown route', '/v1/nothing-here', { headers: anthropic, body: {} });
    await call('admin without token', '/api/rpc/connections.list', { body: {} });

    // Secrets added through the contract, as the dashboard would; their answers must not echo them.
    const upserted = await h.core.router.call('connections.upsert', {
      name: 'extra',
      kind: 'anthropic',
      baseUrl: extra.url,
      secret: { type: 'api-key', apiKey: SECRETS.contractKey },
      models: ['claude-extra-1'],
    });
    expect(upserted.ok).toBe(true);
    seen.push({ what: 'connections.upsert (api key) answer', text: JSON.stringify(upserted) });
    const upsertedOauth = await h.core.router.call('connections.upsert', {
      name: 'sub2',
      kind: 'claude-oauth',
      baseUrl: sub.url,
      secret: { type: 'oauth', accessToken: SECRETS.contractAccess, refreshToken: SECRETS.contractRefresh },
    });
    expect(upsertedOauth.ok).toBe(true);
    seen.push({ what: 'connections.upsert (oauth) answer', text: JSON.stringify(upsertedOauth) });
    await call('contract connection ok', '/v1/messages', { headers: anthropic, body: ask('claude-extra-1') });
    // A second local key: its plain value is shown once (in the create answer) and never again.
    const created = await h.core.router.call('keys.create', { name: 'second' });
    expect(created.ok).toBe(true);
    const secondKey = created.ok ? (created.value as CreatedLocalKey).plainKey : '';
    expect(secondKey.length).toBeGreaterThan(12);
    // The fakes are on loopback, so their providers use the local breaker profile (OPEN at 2 failures); reset it.
    await h.core.router.call('resilience.reset', undefined);
    await call('second key ok', '/v1/messages', { headers: anthropicAs(secondKey), body: ask('claude-sonnet-4-6') });
    await h.core.router.call('settings.update', { streamHeadersTimeoutMs: 5_000 });

    // The traffic really happened as intended, so the absence of leaks means something.
    expect(statuses).toMatchObject({
      'anthropic ok': 200,
      'anthropic stream': 200,
      'oauth stream': 200,
      'openai ok': 200,
      'openai stream': 200,
      'count tokens': 200,
      'upstream 401': 401,
      'combo failover': 200,
      'combo exhausted': 401,
      'openai 500': 500,
      'unknown model': 404,
      'unknown model openai': 404,
      'bad key': 401,
      'bad key openai': 401,
      'no key': 401,
      'admin without token': 401,
      'contract connection ok': 200,
      'second key ok': 200,
    });
    expect(statuses.unreachable).toBeGreaterThanOrEqual(500);
    expect(failedOver.res.headers.get('x-leeway-failover')).toBe('ant=500');
    // Upstreams got their own secret (the fakes refuse anything else) and never the local keys.
    expect(ant.requests[0]?.headers['x-api-key']).toBe(SECRETS.anthropicKey);
    expect(sub.requests[0]?.headers.authorization).toBe(`Bearer ${SECRETS.oauthAccess}`);
    expect(oai.requests[0]?.headers.authorization).toBe(`Bearer ${SECRETS.openaiKey}`);
    expect(extra.requests[0]?.headers['x-api-key']).toBe(SECRETS.contractKey);
    for (const upstream of [ant, sub, oai, extra]) {
      for (const r of upstream.requests) {
        expect(JSON.stringify(r.headers) + r.body).not.toContain(h.key);
        expect(JSON.stringify(r.headers) + r.body).not.toContain(secondKey);
        expect(r.body).not.toContain('SECRET');
      }
    }

    // Every admin answer, through the router and through the HTTP door.
    const adminCalls: [string, unknown][] = [
      ['connections.list', {}],
      ['activity.list', {}],
      ['activity.list', { status: 'error' }],
      ['activity.summary', {}],
      ['keys.list', {}],
      ['combos.list', {}],
      ['settings.get', {}],
      ['app.info', {}],
    ];
    for (const [method, input] of adminCalls) {
      const answer = await h.core.router.call(method, input);
      expect(answer.ok, method).toBe(true);
      seen.push({ what: `router ${method} answer`, text: JSON.stringify(answer) });
      const res = await fetch(`${h.url}/api/rpc/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      const text = await res.text();
      expect(res.status, method).toBe(200);
      seen.push(
        { what: `HTTP ${method} headers`, text: headerText(res.headers) },
        { what: `HTTP ${method} body`, text },
      );
    }
    const listed = await h.core.router.call('connections.list', {});
    const views = listed.ok ? (listed.value as { name: string; secretHint: string | null }[]) : [];
    expect(views.map((v) => v.name).sort()).toEqual(['ant', 'dead', 'extra', 'oai', 'sub', 'sub2']);
    for (const view of views) expect(view.secretHint).not.toBeNull();
    const logged = await h.core.router.call('activity.list', { limit: 1000 });
    expect(logged.ok && (logged.value as unknown[]).length).toBeGreaterThanOrEqual(15);

    unsubscribe();
    sseAbort.abort();
    await sseDone;
    expect(events.some((e) => e.type === 'activity.request')).toBe(true);
    expect(events.some((e) => e.type === 'connections.changed')).toBe(true);
    expect(events.some((e) => e.type === 'keys.changed')).toBe(true);
    expect(sseText).toContain('event: activity.request');
    events.forEach((event, i) => seen.push({ what: `event #${i} ${event.type}`, text: JSON.stringify(event) }));
    seen.push({ what: 'HTTP event stream', text: sseText });
    h.logs.forEach((line, i) => seen.push({ what: `log line #${i}`, text: line }));

    // activity.list above flushed the request log; read every file Leeway keeps in its data
    // folder except the config file this test wrote (it holds the secrets by construction).
    const files = readdirSync(h.dataDir).filter(
      (name) => name !== 'config.json' && statSync(join(h.dataDir, name)).isFile(),
    );
    expect(files).toContain('leeway.sqlite');
    for (const name of files) {
      const bytes = readFileSync(join(h.dataDir, name));
      seen.push(
        { what: `${name} (utf8)`, text: bytes.toString('utf8') },
        { what: `${name} (latin1)`, text: bytes.toString('latin1') },
      );
    }

    const needles = [...Object.values(SECRETS), h.key, secondKey];
    expect(findLeaks(seen, needles)).toEqual([]);
    // Nothing even partly readable: the distinctive middle of each secret is absent too.
    expect(
      findLeaks(seen, [
        'SECRET-anthropic',
        'SECRET-access',
        'SECRET-refresh',
        'SECRET-openai',
        'SECRET-dead',
        'SECRET-contract',
      ]),
    ).toEqual([]);
  }, 30_000);
});
