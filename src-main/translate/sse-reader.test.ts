import { describe, expect, it } from 'vitest';
import { createSseReader, writeSse } from './sse-reader';

describe('SSE reader (translated streams)', () => {
  it('reads events split anywhere, even inside a UTF-8 character, with CRLF and comments', () => {
    const wire = ': ping\r\nevent: a\r\ndata: {"t":"héllo"}\r\n\r\ndata: [DONE]\n\n';
    const bytes = Buffer.from(wire, 'utf8');
    for (let cut = 1; cut < bytes.length; cut++) {
      const reader = createSseReader();
      const events = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut)), ...reader.end()];
      expect(events).toEqual([
        { event: 'a', data: '{"t":"héllo"}' },
        { event: null, data: '[DONE]' },
      ]);
    }
  });

  it('joins multi-line data and keeps a last block that lacks its blank line', () => {
    const reader = createSseReader();
    expect(reader.push(Buffer.from('data: one\ndata: two\n\ndata:x'))).toEqual([{ event: null, data: 'one\ntwo' }]);
    expect(reader.end()).toEqual([{ event: null, data: 'x' }]);
  });

  it('writes events back in wire form, naming only named ones', () => {
    expect(
      writeSse([
        { event: 'message_stop', data: '{}' },
        { event: null, data: '[DONE]' },
      ]),
    ).toBe('event: message_stop\ndata: {}\n\ndata: [DONE]\n\n');
  });
});
