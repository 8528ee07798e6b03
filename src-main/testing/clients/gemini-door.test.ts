import { ApiError, GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGemini, geminiConnection, type FakeGemini } from '../fake-gemini';
import { anthropicConnection, openaiConnection, startLeeway } from '../start-leeway';
import { connectionRow } from '../../resilience/resilience-it.testkit';
import { activity, useClientHarness } from './client-harness';

/*
 * Issue 23 §1: the Gemini API door. Google's own SDK (@google/genai, its SSE parser and ApiError)
 * through Leeway to a gemini connection (native: key in x-goog-api-key, model in the path,
 * alt=sse) and to Anthropic and OpenAI connections (translated); Google-shaped errors on bad input;
 * a Gemini 429's RetryInfo cools the connection for its delay.
 */
const harness = useClientHarness();
let fakes: FakeGemini[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

async function fakeGemini(): Promise<FakeGemini> {
  const fake = await startFakeGemini();
  fakes.push(fake);
  return fake;
}

function sdk(url: string, key: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } });
}

async function streamText(client: GoogleGenAI, model: string): Promise<string> {
  const stream = await client.models.generateContentStream({ model, contents: 'Say hi' });
  let text = '';
  for await (const chunk of stream) text += chunk.text ?? '';
  return text;
}

describe('Gemini door (issue 23 §1)', () => {
  it('ISSUE-23 the Gemini SDK is served natively by a gemini connection, whole and streamed', async () => {
    const fake = await fakeGemini();
    const leeway = await harness.leeway({
      connections: [geminiConnection('g1', fake, { models: ['gemini-2.5-flash'] })],
    });
    const client = sdk(leeway.url, leeway.key);
    fake.script.push({ kind: 'text', text: 'native answer' }, { kind: 'text', text: 'streamed native answer' });
    const whole = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    expect(whole.text).toBe('native answer');
    expect(await streamText(client, 'gemini-2.5-flash')).toBe('streamed native answer');
    const [first, second] = fake.seen;
    expect(first?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(second?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    // The connection's key upstream, never the local one.
    expect(first?.headers['x-goog-api-key']).toBe(fake.key);
    expect(JSON.stringify(fake.seen)).not.toContain(leeway.key);
  });

  it('ISSUE-23 the Gemini SDK reaches an Anthropic connection translated, whole and streamed', async () => {
    const upstream = await harness.upstream({ format: 'anthropic', name: 'claude' });
    const leeway = await harness.leeway({
      connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-6'] })],
    });
    upstream.enqueue({ kind: 'ok', text: 'from claude' }, { kind: 'ok', text: 'streamed from claude' });
    const client = sdk(leeway.url, leeway.key);
    const whole = await client.models.generateContent({ model: 'claude-sonnet-4-6', contents: 'hi' });
    expect(whole.text).toBe('from claude');
    expect(await streamText(client, 'claude-sonnet-4-6')).toBe('streamed from claude');
    expect(upstream.requests[1]?.json).toMatchObject({ model: 'claude-sonnet-4-6', stream: true });
    const rows = await activity(leeway);
    expect(rows[0]).toMatchObject({ apiFormat: 'gemini', status: 200 });
  });

  it('ISSUE-23 the Gemini SDK reaches an OpenAI-compatible connection translated', async () => {
    const upstream = await harness.upstream({ format: 'openai', name: 'oai' });
    const leeway = await harness.leeway({
      connections: [openaiConnection('o1', upstream.url, { models: ['gpt-4o'] })],
    });
    upstream.enqueue({ kind: 'ok', text: 'from chat' });
    const whole = await sdk(leeway.url, leeway.key).models.generateContent({ model: 'gpt-4o', contents: 'hi' });
    expect(whole.text).toBe('from chat');
  });

  it('ISSUE-23 Anthropic and OpenAI clients reach a gemini connection translated', async () => {
    const fake = await fakeGemini();
    const leeway = await harness.leeway({
      connections: [geminiConnection('g1', fake, { models: ['gemini-2.5-pro'] })],
    });
    fake.script.push({ kind: 'text', text: 'gemini says hi' }, { kind: 'text', text: 'streamed gemini' });
    const headers = { 'content-type': 'application/json', 'x-api-key': leeway.key, 'anthropic-version': '2023-06-01' };
    const body = { model: 'gemini-2.5-pro', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] };
    const res = await fetch(`${leeway.url}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(await res.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'gemini says hi' }] });
    const chat = await fetch(`${leeway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${leeway.key}` },
      body: JSON.stringify({ model: 'gemini-2.5-pro', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await chat.text();
    expect(text).toContain('streamed');
    expect(text).toContain('[DONE]');
    expect(fake.seen.map((s) => s.path)).toEqual([
      '/v1beta/models/gemini-2.5-pro:generateContent',
      '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    ]);
  });

  it('ISSUE-23 ?key= is the local key, GET /v1beta/models lists in Google shape, countTokens estimates', async () => {
    const fake = await fakeGemini();
    const leeway = await harness.leeway({
      connections: [geminiConnection('g1', fake, { models: ['gemini-2.5-flash'] })],
    });
    const list = await fetch(`${leeway.url}/v1beta/models?key=${leeway.key}`);
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ models: [{ name: 'models/gemini-2.5-flash' }] });
    const pager = await sdk(leeway.url, leeway.key).models.list();
    expect(pager.page.map((m) => m.name)).toContain('models/gemini-2.5-flash');
    const count = await sdk(leeway.url, leeway.key).models.countTokens({
      model: 'gemini-2.5-flash',
      contents: 'hello there',
    });
    expect(count.totalTokens).toBeGreaterThan(0);
  });

  it('ISSUE-23 bad input gets Google-shaped errors with the right status', async () => {
    const fake = await fakeGemini();
    const leeway = await harness.leeway({
      connections: [geminiConnection('g1', fake, { models: ['gemini-2.5-flash'] })],
    });
    const post = (path: string, body: string, key: string | null = leeway.key) =>
      fetch(`${leeway.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'x-goog-api-key': key } : {}) },
        body,
      });
    const cases: [Response, number, string][] = [
      [await post('/v1beta/models/gemini-2.5-flash:fooBar', '{}'), 404, 'NOT_FOUND'],
      [await post('/v1beta/models/gemini-2.5-flash:generateContent', '{nope'), 400, 'INVALID_ARGUMENT'],
      [await post('/v1beta/models/gemini-2.5-flash:generateContent', '{"contents":[]}'), 400, 'INVALID_ARGUMENT'],
      [
        await post('/v1beta/models/:generateContent', '{"contents":[{"parts":[{"text":"x"}]}]}'),
        400,
        'INVALID_ARGUMENT',
      ],
      [await post('/v1beta/models/gemini-2.5-flash:generateContent', '{}', null), 401, 'UNAUTHENTICATED'],
      [
        await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent', '{"contents":[{"parts":[{"text":"x"}]}]}'),
        400,
        'INVALID_ARGUMENT',
      ],
    ];
    for (const [res, status, word] of cases) {
      expect(res.status).toBe(status);
      const body = (await res.json()) as { error: { code: number; status: string; message: string } };
      expect(body.error).toMatchObject({ code: status, status: word });
      expect(body.error.message.length).toBeGreaterThan(0);
    }
    expect(fake.seen).toHaveLength(0);
  });

  it('ISSUE-23 a Gemini 429 RetryInfo cools the connection for its delay: the next request skips it', async () => {
    const fake = await fakeGemini();
    const backup = await fakeGemini();
    const leeway = await harness.leeway({
      connections: [
        geminiConnection('g1', fake, { models: ['gemini-2.5-flash'], priority: 1 }),
        geminiConnection('g2', backup, { models: ['gemini-2.5-flash'], priority: 2 }),
      ],
    });
    fake.script.push({ kind: 'rate-limit', retryDelay: '120s' });
    const client = sdk(leeway.url, leeway.key);
    const before = Date.now();
    const first = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    const until = (await connectionRow(leeway, 'g1')).rateLimitedUntil ?? 0;
    // The 120 s of RetryInfo, not a default cooldown.
    expect(until).toBeGreaterThanOrEqual(before + 119_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 121_000);
    expect(first.text).toBe('Hello from fake Gemini');
    expect(fake.seen).toHaveLength(1);
    expect(backup.seen).toHaveLength(1);
    await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'again' });
    // Still cooling for the 120 s Google asked for: the second request went straight to g2.
    expect(fake.seen).toHaveLength(1);
    expect(backup.seen).toHaveLength(2);
  });

  it('ISSUE-23 a Gemini 429 reaches a Gemini client in Google shape (details kept) when no connection is left', async () => {
    const fake = await fakeGemini();
    const leeway = await harness.leeway({
      connections: [geminiConnection('g1', fake, { models: ['gemini-2.5-flash'] })],
    });
    fake.script.push({ kind: 'rate-limit', retryDelay: '3600s' });
    const error = await sdk(leeway.url, leeway.key)
      .models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).message).toContain('RESOURCE_EXHAUSTED');
  });

  it('ISSUE-23 the models of a gemini connection are discovered from its own /v1beta/models (generateContent ones)', async () => {
    const fake = await fakeGemini();
    const leeway = await startLeeway({ connections: [geminiConnection('g1', fake)] }, { modelDiscovery: true });
    try {
      const deadline = Date.now() + 5_000;
      let names: string[] = [];
      while (Date.now() < deadline && !names.includes('models/gemini-2.5-pro')) {
        const list = await fetch(`${leeway.url}/v1beta/models`, { headers: { 'x-goog-api-key': leeway.key } });
        names = ((await list.json()) as { models: { name: string }[] }).models.map((m) => m.name);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(names).toEqual(expect.arrayContaining(['models/gemini-2.5-flash', 'models/gemini-2.5-pro']));
      expect(names).not.toContain('models/text-embedding-004');
      expect(fake.seen[0]).toMatchObject({ method: 'GET', path: '/v1beta/models?pageSize=1000' });
    } finally {
      await leeway.stop();
    }
  });
});
