import { describe, expect, it } from 'vitest';
import { createSseReader, SseEventTooLarge, type SseReaderOptions } from './sse-reader';
import type { SseEvent } from './sse-lines';

/** Every event of `pieces` read in order, the end included. */
function readAll(pieces: readonly Buffer[], options?: SseReaderOptions): SseEvent[] {
  const reader = createSseReader(options);
  const events = pieces.flatMap((piece) => reader.push(piece));
  return [...events, ...reader.end()];
}

describe('SSE reader, events mode', () => {
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

  it('issue 21 §2: an event past the cap is refused with a typed failure, whether its line is unfinished, ends it, or it is many lines', () => {
    const cap = 1024;
    const unfinished = createSseReader({ cap });
    unfinished.push(Buffer.from('data: ' + 'a'.repeat(600)));
    expect(() => unfinished.push(Buffer.from('a'.repeat(600)))).toThrow(SseEventTooLarge);

    const ending = createSseReader({ cap });
    ending.push(Buffer.from('data: ' + 'a'.repeat(1000)));
    expect(() => ending.push(Buffer.from('a'.repeat(100) + '\n\n'))).toThrow('an SSE event over');

    const inOneChunk = createSseReader({ cap });
    expect(() => inOneChunk.push(Buffer.from(`data: ${'a'.repeat(2000)}\n\n`))).toThrow(SseEventTooLarge);

    const manyLines = createSseReader({ cap });
    const lines = Buffer.from(`data: ${'a'.repeat(300)}\n`.repeat(4));
    expect(() => manyLines.push(lines)).toThrow(SseEventTooLarge);

    // Each event is counted on its own: many events under the cap are fine.
    const many = createSseReader({ cap });
    const events = many.push(Buffer.from(`data: ${'a'.repeat(900)}\n\n`.repeat(50)));
    expect(events).toHaveLength(50);
  });

  it('issue 21 §2: a comment line is skipped without being held, however long', () => {
    const reader = createSseReader({ cap: 1024 });
    reader.push(Buffer.from(': ' + 'p'.repeat(800)));
    reader.push(Buffer.from('p'.repeat(5000)));
    expect(reader.push(Buffer.from('p\ndata: ok\n\n'))).toEqual([{ event: null, data: 'ok' }]);
  });
});

/** The SSE grammar read the plain way, over a whole stream's text: the reference the reader must match. */
function specReading(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let event: string | null = null;
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) events.push({ event, data: data.join('\n') });
    event = null;
    data = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') dispatch();
    else if (!line.startsWith(':')) {
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
  }
  dispatch();
  return events;
}

/** A small deterministic generator, so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

/** Cuts bytes at random places (empty pieces included), as socket reads do. */
function cutRandomly(bytes: Buffer, next: () => number): Buffer[] {
  const pieces: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const size = Math.floor(next() * 12);
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

const PIECES = [
  'event: a\n',
  'event:b\r\n',
  'event:  spaced \n',
  'event\n',
  'data: x\n',
  'data:y\r\n',
  'data:  two spaces\n',
  'data\n',
  'data: é中😀\n',
  'datax: no\n',
  'data : no\n',
  'id: 7\n',
  ': comment\n',
  '\n',
  '\r\n',
  '\r',
  'dat',
  'a: z',
];

describe('SSE reader, read as the spec reads the whole stream', () => {
  it('issue 22: thousands of random streams, whole or cut anywhere, give the events the plain reading gives', () => {
    const next = random(2222);
    for (let i = 0; i < 4000; i++) {
      let text = '';
      const n = Math.floor(next() * 16);
      for (let k = 0; k < n; k++) text += PIECES[Math.floor(next() * PIECES.length)] ?? '';
      const expected = specReading(text);
      const bytes = Buffer.from(text);
      expect(readAll([bytes]), JSON.stringify(text)).toEqual(expected);
      expect(readAll(cutRandomly(bytes, next)), `cut: ${JSON.stringify(text)}`).toEqual(expected);
    }
  });

  it('PROD-16: an event split across reads comes out only once its blank line arrives', () => {
    const reader = createSseReader();
    expect(reader.push(Buffer.from('event: message_start\nda'))).toEqual([]);
    expect(reader.push(Buffer.from('ta: {"type":"message_start"}\n'))).toEqual([]);
    expect(reader.push(Buffer.from('\n'))).toEqual([{ event: 'message_start', data: '{"type":"message_start"}' }]);
  });

  it('PROD-16: comments, bare event blocks and CRLF padding before the first event give no event', () => {
    const reader = createSseReader();
    expect(reader.push(Buffer.from(': OPENROUTER PROCESSING\r\n\r\n: still\n\nevent: lonely\n\n'))).toEqual([]);
    expect(reader.push(Buffer.from('data: {"id":"x"}\r\n\r\ndata: next\n\n'))[0]).toEqual({
      event: null,
      data: '{"id":"x"}',
    });
  });
});

describe('SSE reader, skipping what passes the cap', () => {
  it('issue 22: an event past the cap is skipped, never thrown, and the events after it are read', () => {
    const big = `event: big\ndata: ${'a'.repeat(3000)}\ndata: more\n\n`;
    const after = 'event: small\ndata: ok\n\n';
    const bytes = Buffer.from(`data: first\n\n${big}${after}`);
    const whole = readAll([bytes], { cap: 1024, overCap: 'skip' });
    const cut = readAll(cutRandomly(bytes, random(5)), { cap: 1024, overCap: 'skip' });
    const expected = [
      { event: null, data: 'first' },
      { event: 'small', data: 'ok' },
    ];
    expect(whole).toEqual(expected);
    expect(cut).toEqual(expected);
  });

  it('issue 22: a skipped event still ends at a blank line held as a lone CR', () => {
    const reader = createSseReader({ cap: 16, overCap: 'skip' });
    reader.push(Buffer.from(`data: ${'z'.repeat(40)}\r\n\r`));
    expect(reader.push(Buffer.from('\ndata: next\n\n'))).toEqual([{ event: null, data: 'next' }]);
  });
});
