import { eventsOf, type SseEvent } from './sse-scan';

/**
 * The most kept of one event block. Its `event:` line and the start of its data are what decide how a
 * stream ended; a Responses stream's `response.completed` repeats the whole answer and can be
 * megabytes, so only its head is kept.
 */
export const EVENT_HEAD_CAP = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const DATA_LINE = Buffer.from('\ndata');

export interface LastEventKeeper {
  /** Every chunk of the stream, in order. */
  push(chunk: Buffer): void;
  /** The stream's last event as `eventsOf(whole stream).at(-1)` would read it (head only); null when none. */
  last(): SseEvent | null;
}

/** Whether `buf[from, to)` holds a line starting with `data` (a block with an event). */
function hasDataLine(buf: Buffer, from: number, to: number): boolean {
  if (buf[from] === 0x64 && buf[from + 1] === 0x61 && buf[from + 2] === 0x74 && buf[from + 3] === 0x61) return true;
  const at = buf.indexOf(DATA_LINE, from);
  return at !== -1 && at < to;
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
      return doneIn === null ? null : (eventsOf(doneIn.toString('utf8', doneFrom, doneTo)).at(-1) ?? null);
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
