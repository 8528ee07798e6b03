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

function hasDataLine(block: Buffer): boolean {
  return (block[0] === 0x64 && block.subarray(0, 4).toString('latin1') === 'data') || block.includes(DATA_LINE);
}

function capped(block: Buffer): Buffer {
  return block.length > EVENT_HEAD_CAP ? block.subarray(0, EVENT_HEAD_CAP) : block;
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
  /** The head of the newest finished block with a data line. */
  let done: Buffer | null = null;
  /** How the previous chunk ended, for a blank line split between two chunks: 1 = `\n`, 2 = `\n\r`. */
  let carry = 0;

  const keepOpen = (piece: Buffer) => {
    if (piece.length === 0 || openSize >= EVENT_HEAD_CAP) return;
    const room = EVENT_HEAD_CAP - openSize;
    // A copy: a view would pin the whole socket chunk until the stream ends.
    const kept = Buffer.from(piece.length > room ? piece.subarray(0, room) : piece);
    open.push(kept);
    openSize += kept.length;
  };

  return {
    push(chunk) {
      if (chunk.length === 0) return;
      // A blank line whose first newline ended the previous chunk ends here, just past `cross`.
      let cross = -1;
      if (carry === 1 && chunk[0] === LF) cross = 1;
      else if (carry === 1 && chunk[0] === CR && chunk[1] === LF) cross = 2;
      else if (carry === 2 && chunk[0] === LF) cross = 1;
      const lastByte = chunk[chunk.length - 1];
      carry = lastByte === LF ? 1 : lastByte === CR && chunk.length > 1 && chunk[chunk.length - 2] === LF ? 2 : 0;

      const end = blankLineEnd(chunk, chunk.length, cross);
      if (end === -1) return keepOpen(chunk);
      // The blocks finished in this chunk, newest first, until one holds an event.
      let blockEnd = end;
      for (;;) {
        const blockStart = blankLineEnd(chunk, blockEnd - 1, cross);
        if (blockStart !== -1) {
          const block = chunk.subarray(blockStart, blockEnd);
          if (hasDataLine(block)) {
            done = capped(block);
            break;
          }
          blockEnd = blockStart;
          continue;
        }
        // The newest block began in an earlier chunk: the kept head of the open block, then this chunk's part.
        const block = capped(
          open.length === 0 ? chunk.subarray(0, blockEnd) : Buffer.concat([...open, chunk.subarray(0, blockEnd)]),
        );
        if (hasDataLine(block)) done = block;
        break;
      }
      open = [];
      openSize = 0;
      keepOpen(chunk.subarray(end));
    },
    last() {
      // An unterminated last block counts too, as line-based clients would still read it.
      if (open.length > 0) {
        const unfinished = eventsOf(Buffer.concat(open, openSize).toString('utf8')).at(-1);
        if (unfinished) return unfinished;
      }
      return done ? (eventsOf(done.toString('utf8')).at(-1) ?? null) : null;
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
