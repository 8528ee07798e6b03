import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../testing/fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../../testing/start-leeway';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

async function setup(format: 'anthropic' | 'openai') {
  const upstream = await startFakeUpstream({ format, name: 'up' });
  upstreams.push(upstream);
  const connection =
    format === 'anthropic' ? anthropicConnection('a1', upstream.url) : openaiConnection('o1', upstream.url);
  leeway = await startLeeway({ connections: [connection] });
  return { upstream, leeway };
}

const anthropicHeaders = (key: string) => ({
  'content-type': 'application/json',
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'prompt-caching-2024-07-31',
});

describe('relay through the real proxy', () => {
  it('PROD-10: relays an Anthropic JSON answer byte for byte with the serving connection named', async () => {
    const { upstream, leeway: h } = await setup('anthropic');
    const res = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: anthropicHeaders(h.key),
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('a1');
    expect(res.headers.get('x-leeway-failover')).toBeNull();
    expect(text).toBe(upstream.requests[0]?.response?.body);
    const sent = upstream.requests[0];
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe('sk-ant-secret-a1-0000');
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31');
  });

  it('PROD-10: relays an Anthropic SSE stream (ping included) byte for byte and keeps the query string', async () => {
    const { upstream, leeway: h } = await setup('anthropic');
    const res = await fetch(`${h.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: anthropicHeaders(h.key),
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 32,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    const text = await res.text();
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(text).toContain('event: ping');
    expect(text).toBe(upstream.requests[0]?.response?.body);
    expect(upstream.requests[0]?.path).toBe('/v1/messages?beta=true');
  });

  it('PROD-11: relays OpenAI chat completions, JSON and SSE, identical to the upstream', async () => {
    const { upstream, leeway: h } = await setup('openai');
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${h.key}` };
    const json = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(await json.text()).toBe(upstream.requests[0]?.response?.body);
    const sse = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: 'gpt-4o',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    const text = await sse.text();
    expect(text).toContain('data: [DONE]');
    expect(text).toBe(upstream.requests[1]?.response?.body);
    expect(upstream.requests[1]?.path).toBe('/v1/chat/completions');
    expect(upstream.requests[1]?.headers.authorization).toBe('Bearer sk-openai-secret-o1-0000');
  });

  it('PROD-18/PROD-15: never forwards the client key, cookies, session or lease headers (and their aliases) upstream', async () => {
    const { upstream, leeway: h } = await setup('anthropic');
    await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: {
        ...anthropicHeaders(h.key),
        cookie: 'session=abc',
        'x-leeway-session': 's1',
        'x-claude-code-session-id': 's2',
        'x-leeway-lease-owner': 'me',
        'x-leeway-lease-generation': '3',
        'x-omniroute-session': 's3',
        'x-omniroute-lease-owner': 'me',
        'x-omniroute-lease-generation': '3',
      },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [] }),
    }).then((r) => r.text());
    const sent = upstream.requests[0]?.headers ?? {};
    expect(JSON.stringify(sent)).not.toContain(h.key);
    for (const name of [
      'cookie',
      'x-leeway-session',
      'x-claude-code-session-id',
      'x-leeway-lease-owner',
      'x-leeway-lease-generation',
      'x-omniroute-session',
      'x-omniroute-lease-owner',
      'x-omniroute-lease-generation',
      'authorization',
    ]) {
      expect(sent[name]).toBeUndefined();
    }
  });

  it('PROD-16: records usage, latency and the connection in the request log', async () => {
    const { leeway: h } = await setup('anthropic');
    await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: anthropicHeaders(h.key),
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 8,
        stream: true,
        messages: [{ role: 'user', content: 'hello there' }],
      }),
    }).then((r) => r.text());
    const list = await h.core.router.call('activity.list', {});
    expect(list.ok).toBe(true);
    const entries = list.ok
      ? (list.value as {
          connection: string;
          status: number;
          inputTokens: number;
          outputTokens: number;
          stream: boolean;
          keyName: string;
        }[])
      : [];
    expect(entries[0]).toMatchObject({ connection: 'a1', status: 200, stream: true, keyName: 'test' });
    expect(entries[0]?.inputTokens).toBeGreaterThan(0);
    expect(entries[0]?.outputTokens).toBeGreaterThan(0);
  });
});
