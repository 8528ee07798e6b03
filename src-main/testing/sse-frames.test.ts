import { describe, expect, it } from 'vitest';
import { anthropicStreamFrames, openaiStreamFrames, splitText } from './sse-frames';

const eventNames = (frames: string[]): string[] => frames.map((f) => /^event: (\S+)\n/.exec(f)?.[1] ?? '?');
const dataOf = (frame: string): unknown => JSON.parse(frame.slice(frame.indexOf('data: ') + 6).trim()) as unknown;

describe('sse-frames', () => {
  it('splitText keeps every character and never yields empty pieces', () => {
    expect(splitText('Hello there', 3)).toEqual(['Hell', 'o t', 'here']);
    expect(splitText('ab', 5)).toEqual(['a', 'b']);
    expect(splitText('', 3)).toEqual(['']);
    expect(splitText('abcdefg', 4).join('')).toBe('abcdefg');
  });

  it('builds the Anthropic Messages event sequence with ping after content_block_start', () => {
    const frames = anthropicStreamFrames({
      id: 'msg_1',
      model: 'm',
      deltas: ['a', 'b'],
      inputTokens: 7,
      outputTokens: 2,
    });
    expect(eventNames(frames)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const frame of frames) expect(frame).toMatch(/^event: \S+\ndata: \{.*\}\n\n$/);
    expect(dataOf(frames[0] ?? '')).toMatchObject({
      message: { id: 'msg_1', model: 'm', usage: { input_tokens: 7 } },
    });
    expect(dataOf(frames[3] ?? '')).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'a' },
    });
    expect(dataOf(frames[6] ?? '')).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: 2 },
    });
  });

  it('builds OpenAI chunks with a role delta first and [DONE] last, usage only when asked', () => {
    const base = {
      id: 'c1',
      model: 'g',
      created: 1,
      deltas: ['x', 'y'],
      promptTokens: 3,
      completionTokens: 4,
    };
    const plain = openaiStreamFrames({ ...base, includeUsage: false });
    expect(plain).toHaveLength(5);
    expect(plain.at(-1)).toBe('data: [DONE]\n\n');
    expect(dataOf(plain[0] ?? '')).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [{ delta: { role: 'assistant' } }],
    });
    expect(dataOf(plain[3] ?? '')).toMatchObject({
      choices: [{ delta: {}, finish_reason: 'stop' }],
    });
    expect(dataOf(plain[1] ?? '')).not.toHaveProperty('usage');

    const withUsage = openaiStreamFrames({ ...base, includeUsage: true });
    expect(withUsage).toHaveLength(6);
    expect(dataOf(withUsage[1] ?? '')).toMatchObject({ usage: null });
    expect(dataOf(withUsage[4] ?? '')).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
  });
});
