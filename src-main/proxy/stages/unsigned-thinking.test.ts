import { describe, expect, it } from 'vitest';
import { withoutUnsignedThinking } from './unsigned-thinking';

describe('unsigned thinking on the way to Anthropic (issue 12, cross-format failover)', () => {
  it('drops thinking blocks a translated answer left with an empty signature, keeps signed ones and the rest', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'from GLM', signature: '' },
            { type: 'text', text: 'hello' },
          ],
        },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'real', signature: 'EqQBCkYI' }] },
      ],
    };
    const out = withoutUnsignedThinking(Buffer.from(JSON.stringify(body)));
    expect(out && JSON.parse(out.toString('utf8'))).toEqual({
      ...body,
      messages: [body.messages[0], { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }, body.messages[2]],
    });
  });

  it('leaves every other body alone (null: the bytes go as they are)', () => {
    const signed = {
      model: 'm',
      messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 'abc' }] }],
    };
    expect(withoutUnsignedThinking(Buffer.from(JSON.stringify(signed)))).toBeNull();
    // The marker inside a text is not a block: parsed, nothing removed.
    const text = { model: 'm', messages: [{ role: 'user', content: 'say "signature":"" please' }] };
    expect(withoutUnsignedThinking(Buffer.from(JSON.stringify(text)))).toBeNull();
  });
});
