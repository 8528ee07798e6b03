import { HeldBytes } from './held-bytes';
import { blankLineEnd, CR, isDataLineAt, LF, trailingBlankLine, type SseEvent } from './sse-lines';
import { createSseReader } from './sse-reader';

/**
 * The most kept of one event block. Its `event:` line and the start of its data are what decide how a
 * stream ended; a Responses stream's `response.completed` repeats the whole answer and can be
 * megabytes, so only its head is kept.
 */
export const EVENT_HEAD_CAP = 64 * 1024;

const DATA_LINE = Buffer.from('\ndata');

/**
 * The SSE reader's cheapest mode: it only follows where event blocks end, keeping the head of the
 * newest block that holds an event and of the block still open, and decodes that head (with the
 * events mode) only when asked. Per read it looks at the read's last few lines alone, walking back
 * from its end; a read that is one whole event costs one search.
 */
export interface LastEventReader {
  /** Every read of the stream, in order. */
  push(chunk: Buffer): void;
  /** The stream's last event as the events mode reads the whole stream (its head only); null when none. */
  last(): SseEvent | null;
}

/** Whether a line of `buf[from, to)` (a finished block) is a data line. */
function hasDataLine(buf: Buffer, from: number, to: number): boolean {
  if (isDataLineAt(buf, from, to)) return true;
  // One native search per candidate, so a block of many short lines costs no call per line.
  for (let at = buf.indexOf(DATA_LINE, from); at !== -1 && at + 1 < to; at = buf.indexOf(DATA_LINE, at + 1))
    if (isDataLineAt(buf, at + 1, to)) return true;
  return false;
}

/** The last event of a block's (or a block head's) bytes, read by the events mode. */
function lastEventOf(bytes: Buffer): SseEvent | null {
  const reader = createSseReader({ overCap: 'skip' });
  const events = reader.push(bytes);
  events.push(...reader.end());
  return events.at(-1) ?? null;
}

export function createLastEventReader(): LastEventReader {
  /** The head of the block after the newest blank line (still open). */
  const open = new HeldBytes();
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
  /** How the previous read ended, for a blank line split between two reads: 1 = `\n`, 2 = `\n\r`. */
  let carry = 0;

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
      // A blank line whose first newline ended the previous read ends here, just past `cross`.
      let cross = -1;
      if (carry === 1 && chunk[0] === LF) cross = 1;
      else if (carry === 1 && chunk[0] === CR && chunk[1] === LF) cross = 2;
      else if (carry === 2 && chunk[0] === LF) cross = 1;
      const lastByte = chunk[size - 1];
      carry = lastByte === LF ? 1 : lastByte === CR && size > 1 && chunk[size - 2] === LF ? 2 : 0;

      // The quick way, for a read that ends a block begun in it (the usual read: whole events): when
      // the block's last line is a data line, it is the newest event; one search finds that line.
      const blank = open.size === 0 ? trailingBlankLine(chunk, size) : -1;
      if (blank > 0) {
        const lineAt = chunk.lastIndexOf(LF, blank - 1) + 1;
        if (isDataLineAt(chunk, lineAt, size)) {
          doneIn = chunk; // a view: it pins this read only until the next one replaces it
          doneTo = size;
          doneLineAt = lineAt;
          doneCross = cross;
          return;
        }
      }

      const end = blankLineEnd(chunk, size, cross);
      if (end === -1) return open.addHead(chunk, 0, EVENT_HEAD_CAP);
      // The blocks finished in this read, newest first, until one holds an event.
      let blockEnd = end;
      for (;;) {
        const blockStart = blankLineEnd(chunk, blockEnd - 1, cross);
        if (blockStart !== -1) {
          if (hasDataLine(chunk, blockStart, blockEnd)) {
            // A view: it pins this read only until the next one replaces it.
            setDone(chunk, blockStart, blockEnd);
            break;
          }
          blockEnd = blockStart;
          continue;
        }
        // The newest block began in an earlier read: the kept head of the open block, then this read's part.
        if (open.size === 0) {
          if (hasDataLine(chunk, 0, blockEnd)) setDone(chunk, 0, blockEnd);
        } else {
          open.add(chunk.subarray(0, blockEnd), false);
          const block = open.take();
          if (hasDataLine(block, 0, block.length)) setDone(block, 0, block.length);
        }
        break;
      }
      open.clear();
      open.addHead(chunk, end, EVENT_HEAD_CAP);
    },
    last() {
      // An unterminated last block counts too, as line-based clients would still read it.
      if (open.size > 0) {
        const unfinished = lastEventOf(Buffer.concat(open.pieces, open.size));
        if (unfinished) return unfinished;
      }
      if (doneIn === null) return null;
      if (doneLineAt >= 0) {
        // Found the quick way: the block began in its read, after the newest blank line before its last line.
        const from = Math.max(0, blankLineEnd(doneIn, doneLineAt, doneCross));
        setDone(doneIn, from, doneTo);
      }
      return lastEventOf(doneIn.subarray(doneFrom, doneTo));
    },
  };
}
