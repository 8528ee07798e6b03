/**
 * The SSE line grammar on bytes (WHATWG HTML §9.2.6), for the modes of the reader that find lines
 * without decoding them: a line ends at LF, a CR before it is dropped, a blank line ends an event
 * block, the field is the text before the first colon. The events mode reads decoded lines by the
 * same grammar (`sse-reader.ts`), and decodes for the other modes what they keep.
 */

/** One dispatched event: its `event:` value (null when the block had none) and its `data:` lines joined with LF. */
export interface SseEvent {
  event: string | null;
  data: string;
}

export const LF = 0x0a;
export const CR = 0x0d;
export const COLON = 0x3a;

/** Whether a line of a finished block starts at `at` and is a data line: `data`, then `:` or the line's end. */
export function isDataLineAt(buf: Buffer, at: number, to: number): boolean {
  if (at + 4 >= to) return false;
  if (buf[at] !== 0x64 || buf[at + 1] !== 0x61 || buf[at + 2] !== 0x74 || buf[at + 3] !== 0x61) return false;
  const next = buf[at + 4];
  return next === COLON || next === LF || next === CR;
}

/** `data:` at the start of `line`, byte by byte (cheaper than a native compare for five bytes). */
export function startsWithDataColon(line: Buffer): boolean {
  return line[0] === 0x64 && line[1] === 0x61 && line[2] === 0x74 && line[3] === 0x61 && line[4] === COLON;
}

/** Where the blank line ending `chunk[0, size)` begins (`\n\n` or `\n\r\n` as its last bytes), or -1. */
export function trailingBlankLine(chunk: Buffer, size: number): number {
  if (size < 2 || chunk[size - 1] !== LF) return -1;
  if (chunk[size - 2] === LF) return size - 2;
  return size >= 3 && chunk[size - 2] === CR && chunk[size - 3] === LF ? size - 3 : -1;
}

/**
 * The index just past the newest blank line (`\n\n` or `\n\r\n`) that ends at or before `before`,
 * walking back one line end at a time; `cross` is one that began in the previous chunk. -1: none.
 */
export function blankLineEnd(chunk: Buffer, before: number, cross: number): number {
  // lastIndexOf with a negative offset would count from the end: stop at the chunk's start.
  let newline = before >= 1 ? chunk.lastIndexOf(LF, before - 1) : -1;
  while (newline >= 1) {
    const previous = chunk[newline - 1];
    if (previous === LF) return newline + 1;
    if (previous === CR && newline >= 2 && chunk[newline - 2] === LF) return newline + 1;
    newline = chunk.lastIndexOf(LF, newline - 1);
  }
  return cross !== -1 && cross <= before ? cross : -1;
}
