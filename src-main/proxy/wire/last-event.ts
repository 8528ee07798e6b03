import { eventsOf, type SseEvent } from './sse-scan';

/**
 * The most kept of one event block. Its `event:` line and the start of its data are what decide how a
 * stream ended; a Responses stream's `response.completed` repeats the whole answer and can be
 * megabytes, so only its head is kept.
 */
export const EVENT_HEAD_CAP = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const DATA_LINE = Buffer.from('\ndata');

export interface LastEventKeeper {
  /** Every chunk of the stream, in order. */
  push(chunk: Buffer): void;
  /** The stream's last event as `eventsOf(whole stream).at(-1)` would read it (head only); null when none. */
  last(): SseEvent | null;
}

/** Whether a line of a finished block starts at `at`: `data`, then `:` or the line's end (as eventsOf reads it). */
function isDataLineAt(buf: Buffer, at: number, to: number): boolean {
  if (at + 4 >= to) return false;
  if (buf[at] !== 0x64 || buf[at + 1] !== 0x61 || buf[at + 2] !== 0x74 || buf[at + 3] !== 0x61) return false;
  const next = buf[at + 4];
  return next === COLON || next === LF || next === CR;
}

/** Whether a line of `buf[from, to)` (a finished block) is a data line. */
function hasDataLine(buf: Buffer, from: number, to: number): boolean {
  if (isDataLineAt(buf, from, to)) return true;
  // One native search per candidate, so a block of many short lines costs no call per line.
  for (let at = buf.indexOf(DATA_LINE, from); at !== -1 && at + 1 < to; at = buf.indexOf(DATA_LINE, at + 1))
    if (isDataLineAt(buf, at + 1, to)) return true;
  return false;
}

/** Where the blank line ending a chunk begins (`\n\n` or `\n\r\n` as its last bytes), or -1. */
function trailingBlankLine(chunk: Buffer, size: number): number {
  if (size < 2 || chunk[size - 1] !== LF) return -1;
  if (chunk[size - 2] === LF) return size - 2;
  return size >= 3 && chunk[size - 2] === CR && chunk[size - 3] === LF ? size - 3 : -1;
}

/**
 * Follows a stream's event blocks as bytes pass, keeping the head of the newest block that holds an
 * event and of the block still open. Per chunk it looks only at the chunk's last few lines, walking
 * back from its end; nothing is decoded until the stream ends.
 */
export function createLastEventKeeper(): LastEventKeeper {
  /** The head of the block after the newest blank line (still open). */
  let open: Buffer[] = [];
  let openSize = 0;
  /** The newest finished block with a data line: `doneIn[doneFrom, doneTo)`, its head only. */
  let doneIn: Buffer | null = null;
  let doneFrom = 0;
  let doneTo = 0;
  /**
   * When ≥ 0, the newest block was found the quick way (see push): it ends at `doneTo`, its last line
   * (a data line) starts here, and where it starts is looked up only if the stream ends on it.
   */
  let doneLineAt = -1;
  let doneCross = -1;
  /** How the previous chunk ended, for a blank line split between two chunks: 1 = `\n`, 2 = `\n\r`. */
  let carry = 0;

  const keepOpen = (chunk: Buffer, from: number) => {
    if (from >= chunk.length || openSize >= EVENT_HEAD_CAP) return;
    const to = Math.min(chunk.length, from + EVENT_HEAD_CAP - openSize);
    // A copy: a view would pin the whole socket chunk until the stream ends.
    const kept = Buffer.from(chunk.subarray(from, to));
    open.push(kept);
    openSize += kept.length;
  };
  const setDone = (buf: Buffer, from: number, to: number) => {
    doneIn = buf;
    doneFrom = from;
    doneTo = Math.min(to, from + EVENT_HEAD_CAP);
    doneLineAt = -1;
  };

  return {
    push(chunk) {
      const size = chunk.length;
      if (size === 0) return;
      // A blank line whose first newline ended the previous chunk ends here, just past `cross`.
      let cross = -1;
      if (carry === 1 && chunk[0] === LF) cross = 1;
      else if (carry === 1 && chunk[0] === CR && chunk[1] === LF) cross = 2;
      else if (carry === 2 && chunk[0] === LF) cross = 1;
      const lastByte = chunk[size - 1];
      carry = lastByte === LF ? 1 : lastByte === CR && size > 1 && chunk[size - 2] === LF ? 2 : 0;

      // The quick way, for a chunk that ends a block begun in it (the usual read: whole events): when
      // the block's last line is a data line, it is the newest event; one search finds that line.
      const blank = open.length === 0 ? trailingBlankLine(chunk, size) : -1;
      if (blank > 0) {
        const lineAt = chunk.lastIndexOf(LF, blank - 1) + 1;
        if (isDataLineAt(chunk, lineAt, size)) {
          doneIn = chunk; // a view: it pins this chunk only until the next one replaces it
          doneTo = size;
          doneLineAt = lineAt;
          doneCross = cross;
          return;
        }
      }

      const end = blankLineEnd(chunk, size, cross);
      if (end === -1) return keepOpen(chunk, 0);
      // The blocks finished in this chunk, newest first, until one holds an event.
      let blockEnd = end;
      for (;;) {
        const blockStart = blankLineEnd(chunk, blockEnd - 1, cross);
        if (blockStart !== -1) {
          if (hasDataLine(chunk, blockStart, blockEnd)) {
            // A view: it pins this chunk only until the next one replaces it.
            setDone(chunk, blockStart, blockEnd);
            break;
          }
          blockEnd = blockStart;
          continue;
        }
        // The newest block began in an earlier chunk: the kept head of the open block, then this chunk's part.
        if (open.length === 0) {
          if (hasDataLine(chunk, 0, blockEnd)) setDone(chunk, 0, blockEnd);
        } else {
          const block = Buffer.concat([...open, chunk.subarray(0, blockEnd)]);
          if (hasDataLine(block, 0, block.length)) setDone(block, 0, block.length);
        }
        break;
      }
      if (open.length > 0) {
        open = [];
        openSize = 0;
      }
      keepOpen(chunk, end);
    },
    last() {
      // An unterminated last block counts too, as line-based clients would still read it.
      if (open.length > 0) {
        const unfinished = eventsOf(Buffer.concat(open, openSize).toString('utf8')).at(-1);
        if (unfinished) return unfinished;
      }
      if (doneIn === null) return null;
      if (doneLineAt >= 0) {
        // Found the quick way: the block began in its chunk, after the newest blank line before its last line.
        const from = Math.max(0, blankLineEnd(doneIn, doneLineAt, doneCross));
        setDone(doneIn, from, doneTo);
      }
      return eventsOf(doneIn.toString('utf8', doneFrom, doneTo)).at(-1) ?? null;
    },
  };
}

/**
 * The index just past the newest blank line (`\n\n` or `\n\r\n`) that ends at or before `before`,
 * walking back one line end at a time; `cross` is one that began in the previous chunk. -1: none.
 */
function blankLineEnd(chunk: Buffer, before: number, cross: number): number {
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
