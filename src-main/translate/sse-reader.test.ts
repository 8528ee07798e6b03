import { describe, expect, it } from 'vitest';
import { createSseReader, writeSse } from './sse-reader';
import { TranslationFailure } from './translation-failure';

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

  it('issue 21 §2: reads a line split over many chunks, and one whose line end opens a chunk', () => {
    const text = 'é'.repeat(100_000);
    const wire = Buffer.from(`event: big\ndata: ${text}\n\ndata: after\n\n`, 'utf8');
    const reader = createSseReader();
    const events = [];
    for (let at = 0; at < wire.length; at += 777) events.push(...reader.push(wire.subarray(at, at + 777)));
    events.push(...reader.end());
    expect(events).toEqual([
      { event: 'big', data: text },
      { event: null, data: 'after' },
    ]);
    const split = createSseReader();
    expect(split.push(Buffer.from('data: x'))).toEqual([]);
    expect(split.push(Buffer.from('yz'))).toEqual([]);
    expect(split.push(Buffer.from('\n\ndata: next\n'))).toEqual([{ event: null, data: 'xyz' }]);
    expect(split.end()).toEqual([{ event: null, data: 'next' }]);
  });

  it('issue 21 §2: an event past the cap is refused with a TranslationFailure, whether its line is unfinished, ends it, or it is many lines', () => {
    const cap = 1024;
    const unfinished = createSseReader(cap);
    unfinished.push(Buffer.from('data: ' + 'a'.repeat(600)));
    expect(() => unfinished.push(Buffer.from('a'.repeat(600)))).toThrow(TranslationFailure);

    const ending = createSseReader(cap);
    ending.push(Buffer.from('data: ' + 'a'.repeat(1000)));
    expect(() => ending.push(Buffer.from('a'.repeat(100) + '\n\n'))).toThrow('an SSE event over');

    const inOneChunk = createSseReader(cap);
    expect(() => inOneChunk.push(Buffer.from(`data: ${'a'.repeat(2000)}\n\n`))).toThrow(TranslationFailure);

    const manyLines = createSseReader(cap);
    const lines = Buffer.from(`data: ${'a'.repeat(300)}\n`.repeat(4));
    expect(() => manyLines.push(lines)).toThrow(TranslationFailure);

    // Each event is counted on its own: many events under the cap are fine.
    const many = createSseReader(cap);
    const events = many.push(Buffer.from(`data: ${'a'.repeat(900)}\n\n`.repeat(50)));
    expect(events).toHaveLength(50);
  });

  it('issue 21 §2: a comment line is skipped without being held, however long', () => {
    const reader = createSseReader(1024);
    reader.push(Buffer.from(': ' + 'p'.repeat(800)));
    reader.push(Buffer.from('p'.repeat(5000)));
    expect(reader.push(Buffer.from('p\ndata: ok\n\n'))).toEqual([{ event: null, data: 'ok' }]);
  });
});
