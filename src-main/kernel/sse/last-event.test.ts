import { describe, expect, it } from 'vitest';
import { createLastEventReader, EVENT_HEAD_CAP } from './last-event';
import { createSseReader } from './sse-reader';
import type { SseEvent } from './sse-lines';

/** The last event of a whole stream, read by the events mode. */
function lastOfAll(text: string): SseEvent | null {
  const reader = createSseReader();
  return [...reader.push(Buffer.from(text)), ...reader.end()].at(-1) ?? null;
}

/** A small deterministic generator, so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

function keepAll(pieces: readonly Buffer[]) {
  const keeper = createLastEventReader();
  for (const piece of pieces) keeper.push(piece);
  return keeper.last();
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

describe('SSE reader, last-event mode: the last event of a stream, kept as it passes', () => {
  it('PROD-17: reads the last event as the events mode reads the whole stream, however the bytes are cut', () => {
    const next = random(7);
    const pieces = [
      'event: a\n',
      'data: x\n',
      'data: y\r\n',
      '\n',
      '\r\n',
      ': c\n',
      'event: b\r\n',
      'dat',
      'a: z',
      'datax: q\n',
      'data\n',
      'event:  spaced \n',
      'event\n',
      '\r',
      '',
    ];
    for (let i = 0; i < 3000; i++) {
      let text = '';
      const n = Math.floor(next() * 14);
      for (let k = 0; k < n; k++) text += pieces[Math.floor(next() * pieces.length)] ?? '';
      const expected = lastOfAll(text);
      const bytes = Buffer.from(text);
      expect(keepAll([bytes]), JSON.stringify(text)).toEqual(expected);
      expect(keepAll(cutRandomly(bytes, next)), `cut: ${JSON.stringify(text)}`).toEqual(expected);
    }
  });

  it('PROD-17: a terminal event far bigger than a read is still read by its name, from its head alone', () => {
    const answer = 'word '.repeat(100_000);
    const completed = `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { output: answer } })}\n\n`;
    const stream = Buffer.from(`event: response.created\ndata: {"type":"response.created"}\n\n${completed}`);
    const pieces: Buffer[] = [];
    for (let at = 0; at < stream.length; at += 16 * 1024) pieces.push(stream.subarray(at, at + 16 * 1024));
    const last = keepAll(pieces);
    expect(last?.event).toBe('response.completed');
    expect(last?.data.length).toBeLessThanOrEqual(EVENT_HEAD_CAP);
    expect(last?.data.startsWith('{"type":"response.completed"')).toBe(true);
  });

  it('PROD-17: memory stays bounded by the head cap, whatever the event size', () => {
    const keeper = createLastEventReader();
    keeper.push(Buffer.from('event: content_block_delta\ndata: {"text":"'));
    for (let i = 0; i < 256; i++) keeper.push(Buffer.alloc(64 * 1024, 'z'));
    const last = keeper.last();
    expect(last?.event).toBe('content_block_delta');
    expect(Buffer.byteLength(last?.data ?? '')).toBeLessThanOrEqual(EVENT_HEAD_CAP);
  });
});
