import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';
import { FULL_PARSE_MAX_BYTES } from './accept/parse-model-body';

let upstream: FakeUpstream;
let h: RunningLeeway;

beforeAll(async () => {
  upstream = await startFakeUpstream({ format: 'anthropic' });
  h = await startLeeway({
    connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-5'] })],
    combos: [{ name: 'main', targets: [{ connection: 'a1', model: 'claude-sonnet-4-5' }] }],
  });
});

afterAll(async () => {
  await h.stop();
  await upstream.close();
});

const post = (body: string) =>
  fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body,
  });

const bigSystem = 'Ω long system prompt '.repeat(Math.ceil((FULL_PARSE_MAX_BYTES * 2) / 20));

describe('Claude Code-sized bodies are read without building them', () => {
  it('issue 9 perf: a large streaming body through a combo arrives upstream with only the model changed and streams back', async () => {
    const body = JSON.stringify({
      model: 'main',
      system: bigSystem,
      max_tokens: 16,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(await res.text()).toContain('message_stop');
    const sent = upstream.requests.at(-1);
    expect(sent).toBeDefined();
    expect(JSON.parse(sent?.body ?? '{}')).toEqual({ ...(JSON.parse(body) as object), model: 'claude-sonnet-4-5' });
  });

  it('issue 9 perf: a truncated large body is refused with invalid_json in the client format and never sent upstream', async () => {
    const before = upstream.requests.length;
    const res = await post(JSON.stringify({ model: 'main', system: bigSystem, max_tokens: 16 }).slice(0, -2));
    expect(res.status).toBe(400);
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
      leeway: { code: 'invalid_json' },
    });
    expect(upstream.requests.length).toBe(before);
  });

  it('issue 12: thinking with an empty signature is removed on the way to Anthropic, found by the body scan in small and large bodies alike', async () => {
    const history = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'from GLM', signature: '' },
          { type: 'text', text: 'hello' },
        ],
      },
      { role: 'user', content: 'again' },
    ];
    const expected = [history[0], { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }, history[2]];
    for (const system of ['short', bigSystem]) {
      // Spaced the way Python's json.dumps writes it, to check the scan is not tied to one spelling.
      const body = JSON.stringify({ model: 'main', system, max_tokens: 16, messages: history }, null, 1);
      const res = await post(body);
      expect(res.status).toBe(200);
      await res.text();
      const sent = JSON.parse(upstream.requests.at(-1)?.body ?? '{}') as { messages?: unknown; system?: unknown };
      expect(sent.messages).toEqual(expected);
      expect(sent.system).toBe(system);
    }
  });

  it('issue 12: a signed thinking block and a text quoting the marker leave a large body byte-exact (only the model changes)', async () => {
    const body = JSON.stringify({
      model: 'main',
      system: bigSystem,
      max_tokens: 16,
      messages: [
        { role: 'user', content: 'quote "signature":"" here' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 'EqQBCkYI' }] },
        { role: 'user', content: 'next' },
      ],
    });
    const res = await post(body);
    expect(res.status).toBe(200);
    await res.text();
    expect(upstream.requests.at(-1)?.body).toBe(body.replace('"model":"main"', '"model":"claude-sonnet-4-5"'));
  });
});
