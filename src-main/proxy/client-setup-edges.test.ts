import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';
import { DOUBLED_V1_WARNING } from './accept/endpoints';

let fakes: FakeUpstream[] = [];
let h: RunningLeeway | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

async function fake(format: 'anthropic' | 'openai', name: string): Promise<FakeUpstream> {
  const f = await startFakeUpstream({ format, name });
  fakes.push(f);
  return f;
}

describe('client setup edges (issue 13 §6)', () => {
  it('PROD-10: a base URL ending in /v1 (/v1/v1/messages) is served as /v1/messages, with a warning header and one log line', async () => {
    const up = await fake('anthropic', 'up');
    up.setDefault({ kind: 'ok', text: 'served anyway' });
    h = await startLeeway({ connections: [anthropicConnection('a1', up.url)] });
    // The real SDK with the mistake users make: it appends /v1/messages to a base that has /v1 already.
    const client = new Anthropic({ baseURL: `${h.url}/v1`, apiKey: h.key, maxRetries: 0 });
    const { data, response } = await client.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'served anyway' }]);
    expect(response.headers.get('x-leeway-warning')).toBe(DOUBLED_V1_WARNING);
    expect(up.requests[0]?.path).toMatch(/^\/v1\/messages(\?|$)/);
    await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'again' }],
    });
    const lines = h.logs.filter((l) => l.includes('drop the /v1'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"/v1/v1/messages"');
    const models = await fetch(`${h.url}/v1/v1/models`, {
      headers: { 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    });
    expect(models.status).toBe(200);
    expect(models.headers.get('x-leeway-warning')).toBe(DOUBLED_V1_WARNING);
  });

  it('PROD-17: "Available: none configured" says which API format serves the model when only the format stands in the way', async () => {
    const up = await fake('openai', 'o');
    h = await startLeeway({ connections: [openaiConnection('o1', up.url, { acceptTranslated: false })] });
    const res = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': h.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'gpt-4o', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.message).toBe(
      'Model "gpt-4o" is served by OpenAI-format connection o1 only; it does not accept translated requests. Available: none configured',
    );
    expect(up.requests).toHaveLength(0);
  });
});
