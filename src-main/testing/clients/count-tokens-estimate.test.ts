import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { anthropicConnection, openaiConnection } from '../start-leeway';
import { useClientHarness } from './client-harness';

/*
 * Issue 12 §3: `POST /v1/messages/count_tokens` for a model only an OpenAI-format connection serves
 * is answered by Leeway with an estimate marked `x-leeway-estimated: true`, never a 404 (which
 * makes Claude Code bench the model); an Anthropic connection still answers it itself.
 */
const harness = useClientHarness();

const longText = 'The quick brown fox jumps over the lazy dog. '.repeat(200);

describe('count_tokens estimate (issue 12 §3)', () => {
  it('issue 12 §3: the Anthropic SDK countTokens on an OpenAI-compatible connection gets an estimate, marked, nothing sent upstream', async () => {
    const upstream = await harness.upstream({ format: 'openai', name: 'glm' });
    const leeway = await harness.leeway({
      connections: [openaiConnection('glm', upstream.url, { models: ['glm-4.6'] })],
    });
    const client = new Anthropic({ baseURL: leeway.url, apiKey: leeway.key, maxRetries: 0 });

    const { data: small, response } = await client.messages
      .countTokens({ model: 'glm-4.6', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-leeway-estimated')).toBe('true');
    expect(small.input_tokens).toBeGreaterThan(0);

    const large = await client.messages.countTokens({
      model: 'glm-4.6',
      system: 'You are a careful summariser.',
      tools: [{ name: 'lookup', description: 'Look a word up', input_schema: { type: 'object', properties: {} } }],
      messages: [{ role: 'user', content: longText }],
    });
    // A rough size: ~9 000 characters of English are some 2 000 tokens, not 2 and not 20 000.
    expect(large.input_tokens).toBeGreaterThan(small.input_tokens);
    expect(large.input_tokens).toBeGreaterThan(1_000);
    expect(large.input_tokens).toBeLessThan(10_000);
    expect(upstream.requests.filter((r) => r.path.includes('count_tokens'))).toHaveLength(0);
    expect(upstream.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('issue 12 §3: on an Anthropic connection count_tokens is still the upstream’s own count, not marked estimated', async () => {
    const upstream = await harness.upstream({ format: 'anthropic', name: 'claude' });
    const leeway = await harness.leeway({ connections: [anthropicConnection('a1', upstream.url)] });
    const client = new Anthropic({ baseURL: leeway.url, apiKey: leeway.key, maxRetries: 0 });
    const { data, response } = await client.messages
      .countTokens({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(response.headers.get('x-leeway-estimated')).toBeNull();
    const sent = upstream.requests.find((r) => r.path.startsWith('/v1/messages/count_tokens'));
    expect(sent).toBeDefined();
    // The fake counts a quarter of the body it received.
    expect(data.input_tokens).toBe(Math.max(1, Math.ceil((sent?.body.length ?? 0) / 4)));
  });
});
