import type { SseOut } from './translate-types';
import { TranslationFailure } from './translation-failure';

/**
 * The most one event may hold while it is read: its finished `data` lines plus its unfinished line.
 * A translator must hold an event whole to parse it (unlike the byte relay, which holds nothing),
 * so this bounds memory per stream. Real events are far smaller: deltas are a few tokens, and the
 * biggest single events providers send (a whole answer from a gateway that fakes streaming, a
 * base64 image in one chunk) are a few MB. Translating a 64 MiB event takes 250-350 MB (measured,
 * every client format) and about half a second of CPU; past the cap the stream ends with an error
 * naming the cause. 64 MiB is twice the 32 MB line issue 21 tests with.
 */
export const SSE_EVENT_CAP = 64 * 1024 * 1024;

const LF = 0x0a;
const COLON = 0x3a;

/**
 * An incremental SSE parser for upstream streams that are translated: bytes in (split anywhere,
 * even inside a UTF-8 sequence), complete events out. Comments are dropped; multi-line `data` is
 * joined with "\n" as the spec says.
 *
 * Each byte is searched once: a chunk is searched for line ends only within itself, and an
 * unfinished line is kept as the chunks it came in, joined and decoded once when its line end
 * arrives (a line end never falls inside a UTF-8 sequence, so whole lines decode on their own).
 * Re-searching a growing line on every chunk made a 32 MB line cost tens of seconds (issue 21 §2).
 */
export interface SseReader {
  /** Throws a TranslationFailure once the event being read passes the cap. */
  push(chunk: Buffer): SseOut[];
  /** The last block when the stream ends without its blank line (line-based clients would read it). */
  end(): SseOut[];
}

export function createSseReader(cap = SSE_EVENT_CAP): SseReader {
  /** A line has begun and not ended yet. */
  let open = false;
  /** Its bytes so far, as views of the chunks they came in (dropped once it ends); none for a comment. */
  let parts: Buffer[] = [];
  let partSize = 0;
  let comment = false;
  let event: string | null = null;
  let data: string[] = [];
  /** UTF-16 units in `data`, which never exceed the bytes they were decoded from. */
  let dataSize = 0;

  const tooBig = (): never => {
    throw new TranslationFailure(`an SSE event over ${cap / (1024 * 1024)} MiB`);
  };

  const line = (text: string, out: SseOut[]) => {
    const bare = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (bare === '') {
      if (data.length > 0) out.push({ event, data: data.length === 1 ? (data[0] ?? '') : data.join('\n') });
      event = null;
      data = [];
      dataSize = 0;
      return;
    }
    if (bare.startsWith(':')) return;
    const colon = bare.indexOf(':');
    const field = colon === -1 ? bare : bare.slice(0, colon);
    let value = colon === -1 ? '' : bare.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      dataSize += value.length;
      if (dataSize > cap) tooBig();
      data.push(value);
    } else if (field === 'event') event = value;
  };

  /** Keeps `chunk[from…]`, the start or a piece of a line that has not ended yet. */
  const hold = (chunk: Buffer, from: number) => {
    if (from >= chunk.length) return;
    if (!open) {
      open = true;
      comment = chunk[from] === COLON;
    }
    if (comment) return;
    partSize += chunk.length - from;
    if (dataSize + partSize > cap) tooBig();
    parts.push(from === 0 ? chunk : chunk.subarray(from));
  };

  /** Ends the held line with `tail` (the bytes before its line end): its text, decoded once, or null for a comment. */
  const takeHeld = (tail: Buffer): string | null => {
    const pieces = parts;
    const size = partSize + tail.length;
    const wasComment = comment;
    open = false;
    comment = false;
    parts = [];
    partSize = 0;
    if (wasComment) return null;
    if (dataSize + size > cap) tooBig();
    if (tail.length > 0) pieces.push(tail);
    if (pieces.length === 1) return pieces[0]?.toString('utf8') ?? '';
    return Buffer.concat(pieces, size).toString('utf8');
  };

  return {
    push(chunk) {
      const out: SseOut[] = [];
      let start = 0;
      if (open) {
        const newline = chunk.indexOf(LF);
        if (newline === -1) {
          hold(chunk, 0);
          return out;
        }
        const held = takeHeld(chunk.subarray(0, newline));
        if (held !== null) line(held, out);
        start = newline + 1;
      }
      // Reads usually end on a line end: then no search is needed to find the last one.
      const last = chunk[chunk.length - 1] === LF ? chunk.length - 1 : chunk.lastIndexOf(LF);
      if (last >= start) {
        // The chunk's whole lines, decoded at once and split in the string.
        const text = chunk.toString('utf8', start, last);
        let from = 0;
        for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
          line(text.slice(from, newline), out);
          from = newline + 1;
        }
        line(text.slice(from), out);
        start = last + 1;
      }
      hold(chunk, start);
      return out;
    },
    end() {
      const out: SseOut[] = [];
      const rest = open ? takeHeld(Buffer.alloc(0)) : null;
      if (rest !== null && rest !== '') line(rest, out);
      line('', out);
      return out;
    },
  };
}

/** Up to this much wire text is joined into one piece: a stream's many small events are not written one by one. */
const PIECE_TARGET = 1024 * 1024;

/**
 * Events back to wire text: `event:` only when named; JSON data never holds a raw newline; a `raw`
 * event is its data alone, in a piece of its own (translate-types.ts). Small
 * events are joined into pieces; the data of an event bigger than a piece is a piece of its own (or
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
