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
  return new LastEventKeeper();
}

class LastEventKeeper implements LastEventReader {
  /** The head of the block after the newest blank line (still open). */
  private readonly open = new HeldBytes();
  /** The newest finished block with a data line: `doneIn[doneFrom, doneTo)`, its head only. */
  private doneIn: Buffer | null = null;
  private doneFrom = 0;
  private doneTo = 0;
  /**
   * When ≥ 0, the newest block was found the quick way (see `quick`): it ends at `doneTo`, its last
   * line (a data line) starts here, and where it starts is looked up only if the stream ends on it.
   */
  private doneLineAt = -1;
  private doneCross = -1;
  /** How the previous read ended, for a blank line split between two reads: 1 = `\n`, 2 = `\n\r`. */
  private carry = 0;

  push(chunk: Buffer): void {
    const size = chunk.length;
    if (size === 0) return;
    const cross = this.crossing(chunk);
    if (this.quick(chunk, cross)) return;
    const end = blankLineEnd(chunk, size, cross);
    if (end === -1) return this.open.addHead(chunk, 0, EVENT_HEAD_CAP);
    this.newestBlock(chunk, end, cross);
    this.open.clear();
    this.open.addHead(chunk, end, EVENT_HEAD_CAP);
  }

  last(): SseEvent | null {
    // An unterminated last block counts too, as line-based clients would still read it.
    if (this.open.size > 0) {
      const unfinished = lastEventOf(Buffer.concat(this.open.pieces, this.open.size));
      if (unfinished) return unfinished;
    }
    const doneIn = this.doneIn;
    if (doneIn === null) return null;
    if (this.doneLineAt >= 0) {
      // Found the quick way: the block began in its read, after the newest blank line before its last line.
      const from = Math.max(0, blankLineEnd(doneIn, this.doneLineAt, this.doneCross));
      this.setDone(doneIn, from, this.doneTo);
    }
    return lastEventOf(doneIn.subarray(this.doneFrom, this.doneTo));
  }

  /** Where a blank line whose first newline ended the previous read ends in this one (-1: none). */
  private crossing(chunk: Buffer): number {
    const carry = this.carry;
    const size = chunk.length;
    const lastByte = chunk[size - 1];
    this.carry = lastByte === LF ? 1 : lastByte === CR && size > 1 && chunk[size - 2] === LF ? 2 : 0;
    if (carry === 1 && chunk[0] === LF) return 1;
    if (carry === 1 && chunk[0] === CR && chunk[1] === LF) return 2;
    return carry === 2 && chunk[0] === LF ? 1 : -1;
  }

  /**
   * The quick way, for a read that ends a block begun in it (the usual read: whole events): when
   * the block's last line is a data line, it is the newest event; one search finds that line.
   */
  private quick(chunk: Buffer, cross: number): boolean {
    const size = chunk.length;
    const blank = this.open.size === 0 ? trailingBlankLine(chunk, size) : -1;
    if (blank <= 0) return false;
    const lineAt = chunk.lastIndexOf(LF, blank - 1) + 1;
    if (!isDataLineAt(chunk, lineAt, size)) return false;
    this.doneIn = chunk; // a view: it pins this read only until the next one replaces it
    this.doneTo = size;
    this.doneLineAt = lineAt;
    this.doneCross = cross;
    return true;
  }

  /** The blocks finished in this read (up to `end`), newest first, until one holds an event. */
  private newestBlock(chunk: Buffer, end: number, cross: number): void {
    let blockEnd = end;
    for (;;) {
      const blockStart = blankLineEnd(chunk, blockEnd - 1, cross);
      if (blockStart === -1) return this.blockBegunBefore(chunk, blockEnd);
      // A view: it pins this read only until the next one replaces it.
      if (hasDataLine(chunk, blockStart, blockEnd)) return this.setDone(chunk, blockStart, blockEnd);
      blockEnd = blockStart;
    }
  }

  /** The newest block began in an earlier read: the kept head of the open block, then this read's part. */
  private blockBegunBefore(chunk: Buffer, blockEnd: number): void {
    if (this.open.size === 0) {
      if (hasDataLine(chunk, 0, blockEnd)) this.setDone(chunk, 0, blockEnd);
      return;
    }
    this.open.add(chunk.subarray(0, blockEnd), false);
    const block = this.open.take();
    if (hasDataLine(block, 0, block.length)) this.setDone(block, 0, block.length);
  }

  private setDone(buf: Buffer, from: number, to: number): void {
    this.doneIn = buf;
    this.doneFrom = from;
    this.doneTo = Math.min(to, from + EVENT_HEAD_CAP);
    this.doneLineAt = -1;
  }
}
