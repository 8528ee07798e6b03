import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionTestResult } from '../../src-shared/domain/connection-test';
import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import { reservePort, startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let fakes: FakeUpstream[] = [];
let h: RunningLeeway | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

async function test(name: string): Promise<ConnectionTestResult> {
  const result = await h?.core.router.call('connections.test', { name });
  if (!result?.ok) throw new Error(JSON.stringify(result));
  return result.value as ConnectionTestResult;
}

describe('connections.test', () => {
  it('PROD-5: lists the upstream models with the connection key, for both API formats', async () => {
    const a = await startFakeUpstream({ format: 'anthropic', apiKey: 'sk-ant-secret-a-0000', models: ['claude-x'] });
    const o = await startFakeUpstream({ format: 'openai', apiKey: 'sk-openai-secret-o-0000', models: ['gpt-x'] });
    fakes.push(a, o);
    h = await startLeeway({ connections: [anthropicConnection('a', a.url), openaiConnection('o', o.url)] });
    expect(await test('a')).toMatchObject({ ok: true, status: 200, models: ['claude-x'] });
    expect(await test('o')).toMatchObject({ ok: true, status: 200, models: ['gpt-x'] });
    // Anthropic's list is paged (issue 13 §5): the first page asks for the largest one.
    expect(a.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models?limit=1000' });
    expect(o.requests[0]?.path).toBe('/v1/models');
  });

  it('PROD-5: a wrong key and an unreachable host are explained without secrets', async () => {
    const a = await startFakeUpstream({ format: 'anthropic', apiKey: 'the-right-key-000000000' });
    fakes.push(a);
    const dead = `http://127.0.0.1:${await reservePort()}`;
    h = await startLeeway({ connections: [anthropicConnection('a', a.url), anthropicConnection('dead', dead)] });
    const wrong = await test('a');
    expect(wrong).toMatchObject({ ok: false, status: 401 });
    expect(wrong.message).not.toContain('sk-ant-secret');
    const unreachable = await test('dead');
    expect(unreachable).toMatchObject({ ok: false, status: null });
    expect(unreachable.message).toContain('Could not reach');
    const missing = await h.core.router.call('connections.test', { name: 'ghost' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('issue 21 §17: an account whose every request gets 429 is "Rate limited: retry after …", not "Connected"', async () => {
    const a = await startFakeUpstream({ format: 'anthropic', apiKey: 'sk-ant-secret-a-0000', models: ['claude-x'] });
    fakes.push(a);
    h = await startLeeway({
      connections: [anthropicConnection('a', a.url, { models: ['claude-opus-4-5', 'claude-haiku-4-5'] })],
    });
    // The models list answers; every request is refused for a per-minute limit, as the trial's account was.
    a.enqueue({ kind: 'ok' });
    a.setDefault({ kind: 'status', status: 429, headers: { 'retry-after': '42' } });
    const limited = await test('a');
    expect(limited).toMatchObject({ ok: false, status: 429 });
    expect(limited.message).toMatch(/^Rate limited: retry after 42 s \(a 1-token request to claude-haiku-4-5: .+\)$/);
    // One real request of the smallest kind, to the cheapest model the connection names.
    const sent = a.requests.filter((r) => r.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ path: '/v1/messages' });
    expect(sent[0]?.json).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'hi' }],
    });
    // A Test never cools the connection: the next request goes upstream.
    const cooldowns = await h.core.router.call('cooldowns.list', undefined);
    const row = cooldowns.ok ? (cooldowns.value as CooldownSnapshot).connections.find((c) => c.name === 'a') : null;
    expect(row?.rateLimitedUntil).toBeNull();

    a.setDefault({ kind: 'ok' });
    const healthy = await test('a');
    expect(healthy).toMatchObject({ ok: true, status: 200 });
    expect(healthy.message).toMatch(/^Connected: claude-haiku-4-5 answered in \d+ ms$/);
  });

  it('issue 21 §17: other refusals are said plainly, an OpenAI-format connection gets a 1-token chat request, and no secret is echoed', async () => {
    const o = await startFakeUpstream({
      format: 'openai',
      apiKey: 'sk-openai-secret-o-0000',
      models: ['text-embedding-3-small', 'gpt-4o', 'gpt-4o-mini'],
    });
    fakes.push(o);
    h = await startLeeway({ connections: [openaiConnection('o', o.url)] });
    o.enqueue({ kind: 'ok' }, { kind: 'status', status: 402, echoKey: true });
    const refused = await test('o');
    expect(refused).toMatchObject({ ok: false, status: 402 });
    expect(refused.message).toMatch(/^a 1-token request to gpt-4o-mini got 402: /);
    expect(refused.message).not.toContain('sk-openai-secret-o-0000');
    const sent = o.requests.find((r) => r.method === 'POST');
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.json).toEqual({
      model: 'gpt-4o-mini',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
  });
});
