import { describe, expect, it } from 'vitest';
import { estimateInputTokens } from './count-tokens-estimate';

describe('count_tokens estimate (issue 12 §3)', () => {
  it('grows with text, counts images by their ceiling, tools by their JSON', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'hello' }] };
    const small = estimateInputTokens(base);
    const long = estimateInputTokens({ ...base, messages: [{ role: 'user', content: 'x'.repeat(4000) }] });
    expect(long - small).toBeGreaterThanOrEqual(990);
    const image = estimateInputTokens({
      ...base,
      messages: [
        {
          role: 'user',
          content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(400_000) } }],
        },
      ],
    });
    // The base64 payload is not text: an image costs its ceiling, not 100 000 tokens.
    expect(image).toBeLessThan(2_000);
    expect(image).toBeGreaterThan(1_500);
    const tools = estimateInputTokens({
      ...base,
      tools: [
        {
          name: 'read',
          input_schema: { type: 'object', properties: { path: { type: 'string', description: 'y'.repeat(400) } } },
        },
      ],
    });
    expect(tools - small).toBeGreaterThan(100);
    expect(estimateInputTokens({ ...base, system: [{ type: 'text', text: 'z'.repeat(400) }] }) - small).toBe(100);
  });
});
