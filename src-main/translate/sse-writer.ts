import type { SseOut } from './translate-types';

/** Up to this much wire text is joined into one piece: a stream's many small events are not written one by one. */
const PIECE_TARGET = 1024 * 1024;

/**
 * Events back to wire text: `event:` only when named; JSON data never holds a raw newline; a `raw`
 * event is its data alone, in a piece of its own (translate-types.ts). Small events are joined into pieces; the data of an event bigger than a piece is a piece of its own (or
 * its own pieces, see SseOut.pieces), so a huge event is never copied into a larger string before
 * it is encoded.
 */
export function writeSse(events: readonly SseOut[]): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const e of events) {
    if (e.raw) {
      // Its own piece, so it is written (and likely read) alone: a client parses it as one JSON.
      if (piece !== '') pieces.push(piece);
      pieces.push(e.data);
      piece = '';
      continue;
    }
    const head = e.event === null ? 'data: ' : `event: ${e.event}\ndata: `;
    if (e.data.length > PIECE_TARGET) {
      pieces.push(piece + head, ...(e.pieces ?? [e.data]));
      piece = '\n\n';
      continue;
    }
    const text = `${head}${e.data}\n\n`;
    if (piece.length + text.length > PIECE_TARGET) {
      pieces.push(piece);
      piece = '';
    }
    piece += text;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}
