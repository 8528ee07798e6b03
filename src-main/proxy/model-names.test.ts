import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let anthropic: FakeUpstream;
let openai: FakeUpstream;
let h: RunningLeeway;

beforeAll(async () => {
  anthropic = await startFakeUpstream({ format: 'anthropic' });
  openai = await startFakeUpstream({ format: 'openai' });
  h = await startLeeway({
    connections: [
      anthropicConnection('a1', anthropic.url, {
        models: ['claude-sonnet-4-5'],
        modelAliases: { toString: 'claude-sonnet-4-5' },
      }),
      openaiConnection('o1', openai.url, { models: ['gpt-4o'] }),
    ],
  });
});

afterAll(async () => {
  await h.stop();
  await anthropic.close();
  await openai.close();
});

interface Answer {
  status: number;
  text: string;
  json: Record<string, unknown>;
}

async function ask(format: 'anthropic' | 'openai', model: string): Promise<Answer> {
  const anthropicCall = format === 'anthropic';
  const res = await fetch(`${h.url}${anthropicCall ? '/v1/messages' : '/v1/chat/completions'}`, {
    method: 'POST',
    headers: anthropicCall
      ? { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' }
      : { 'content-type': 'application/json', authorization: `Bearer ${h.key}` },
    body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as Record<string, unknown> };
}

interface LogRow {
  model: string;
  status: number;
  errorCode: string | null;
}

async function logRows(): Promise<LogRow[]> {
  const list = await h.core.router.call('activity.list', { limit: 1000 });
  return list.ok ? (list.value as LogRow[]) : [];
}

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

describe('model names that are not plain ids', () => {
  it('ISSUE-8: names of Object.prototype members get a normal 404 model_not_found in each format, logged as 404', async () => {
    for (const format of ['anthropic', 'openai'] as const) {
      for (const model of PROTOTYPE_NAMES) {
        const answer = await ask(format, model);
        expect(answer.status, `${format} ${model}`).toBe(404);
        expect(answer.json.leeway).toMatchObject({ code: 'model_not_found' });
        if (format === 'anthropic') expect(answer.json.error).toMatchObject({ type: 'not_found_error' });
        else expect(answer.json.error).toMatchObject({ type: 'not_found_error', code: 'model_not_found' });
      }
    }
    const rows = (await logRows()).filter((r) => PROTOTYPE_NAMES.includes(r.model));
    expect(rows).toHaveLength(PROTOTYPE_NAMES.length * 2);
    expect(rows.every((r) => r.status === 404 && r.errorCode === 'model_not_found')).toBe(true);
    expect(anthropic.requests.length + openai.requests.length).toBe(0);
  });

  it('ISSUE-8: connection/__proto__ and connection/constructor go to that connection with the name as given', async () => {
    for (const model of ['a1/__proto__', 'a1/constructor']) {
      const answer = await ask('anthropic', model);
      expect(answer.status, model).toBe(200);
    }
    const sent = anthropic.requests.slice(-2).map((r) => (r.json as { model: unknown }).model);
    expect(sent).toEqual(['__proto__', 'constructor']);
  });

  it('ISSUE-8: a prototype-named alias that is configured is served and mapped to its model', async () => {
    const answer = await ask('anthropic', 'toString');
    expect(answer.status).toBe(200);
    expect((anthropic.requests.at(-1)?.json as { model: unknown }).model).toBe('claude-sonnet-4-5');
  });
});

describe('model names that are too long or carry control characters', () => {
  it('ISSUE-8: a 10 MB model name gets a small 400 quickly, reaches no upstream and writes one small row', async () => {
    const before = (await logRows()).length;
    const upstreamBefore = anthropic.requests.length;
    const started = performance.now();
    const answer = await ask('anthropic', 'm'.repeat(10 * 1024 * 1024));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
      leeway: { code: 'invalid_input' },
    });
    expect(answer.text.length).toBeLessThan(1_000);
    const rows = await logRows();
    expect(rows.length).toBe(before + 1);
    // Issue 13 §3: logged with its reason; the name itself is never stored.
    expect(rows[0]).toMatchObject({ status: 400, errorCode: 'invalid_input' });
    expect(JSON.stringify(rows[0]).length).toBeLessThan(1_000);
    expect(anthropic.requests.length).toBe(upstreamBefore);
  });

  it('ISSUE-8: 256 characters is the longest name accepted; 257 is refused in the OpenAI format', async () => {
    expect((await ask('openai', 'x'.repeat(256))).status).toBe(404);
    const over = await ask('openai', 'x'.repeat(257));
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_input' } });
    expect(over.text).not.toContain('x'.repeat(100));
  });

  it('ISSUE-8: control characters are stripped before the model is routed, logged or echoed', async () => {
    const served = await ask('anthropic', 'claude-\u0007sonnet-4-5\u0000');
    expect(served.status).toBe(200);
    expect((anthropic.requests.at(-1)?.json as { model: unknown }).model).toBe('claude-sonnet-4-5');
    const forged = await ask('anthropic', 'nope\r\n[ROUTE] forged\u001b[2J');
    expect(forged.status).toBe(404);
    expect(forged.text).not.toMatch(/\\r|\\n|\\u001b/);
    const models = (await logRows()).map((r) => r.model);
    expect(models).toContain('nope[ROUTE] forged[2J');
    expect(models.some((m) => /\p{Cc}/u.test(m))).toBe(false);
  });
});
