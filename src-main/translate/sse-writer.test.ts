import { describe, expect, it } from 'vitest';
import { writeSse } from './sse-writer';

describe('SSE writer (translated streams)', () => {
  it('writes events back in wire form, naming only named ones, small events joined into one piece', () => {
    expect(
      writeSse([
        { event: 'message_stop', data: '{}' },
        { event: null, data: '[DONE]' },
      ]),
    ).toEqual(['event: message_stop\ndata: {}\n\ndata: [DONE]\n\n']);
  });

  it('issue 21 §2: writes the data of an event bigger than a piece as a piece of its own (never copied into a bigger string)', () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    const pieces = writeSse([
      { event: null, data: 'a' },
      { event: 'big', data: big },
      { event: null, data: 'b' },
    ]);
    expect(pieces).toEqual(['data: a\n\nevent: big\ndata: ', big, '\n\ndata: b\n\n']);
    expect(pieces[1]).toBe(big);
  });
});
