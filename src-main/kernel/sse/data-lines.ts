import { HeldBytes } from './held-bytes';
import { LF, startsWithDataColon } from './sse-lines';

/** Up to this many bytes, a read is searched for the needle's rare byte (see findNeedle); past it for the needle. */
const BY_BYTE_MAX = 256;

export interface DataLineOptions {
  /** What a line must contain to be handed on. */
  needle: Buffer;
  /** The index in `needle` of a byte that is rare in the stream: small reads are searched for it alone. */
  rareAt: number;
  /** An unfinished line that does not contain the needle by this size is given up. */
  lineCap: number;
  /** No line is kept (or handed on) past this size. */
  mentionCap: number;
  /** A whole `data:` line (without its LF; a CR stays) that contains the needle. */
  onLine: (line: Buffer) => void;
}

/**
 * The SSE reader's mode for a few lines among many: it hands on the `data:` lines that contain a
 * needle (the usage tap's `usage"`), never decoding a line. Within a read only the lines holding
 * the needle are looked at: one native search finds them, so the many other lines of a stream cost
 * nothing each. A line cut by the read's end is kept (copied: a view would pin the socket's read)
 * only while it can still be handed on: it must start with `data:` and stay under the caps.
 */
export interface DataLineReader {
  push(chunk: Buffer): void;
}

/**
 * Where `needle` starts in `chunk` from `from`, or -1. A small read (one delta event) is searched
 * for the needle's rare byte and checked around it: a native search for one byte is several times
 * cheaper than one for a longer needle, and a delta event holds few if any of that byte.
 */
function findNeedle(chunk: Buffer, from: number, needle: Buffer, rareAt: number): number {
  if (chunk.length - from > BY_BYTE_MAX) return chunk.indexOf(needle, from);
  const rare = needle[rareAt] ?? 0;
  for (let at = chunk.indexOf(rare, from + rareAt); at !== -1; at = chunk.indexOf(rare, at + 1)) {
    const start = at - rareAt;
    let i = 0;
    while (i < needle.length && chunk[start + i] === needle[i]) i++;
    if (i === needle.length) return start;
  }
  return -1;
}

export function createDataLineReader(options: DataLineOptions): DataLineReader {
  return new DataLineFinder(options);
}

class DataLineFinder implements DataLineReader {
  private readonly held = new HeldBytes();
  /** An unfinished line is carried over from an earlier read (possibly being skipped). */
  private open = false;
  private skipping = false;
  private mentions = false;
  private prefixChecked = false;

  constructor(private readonly options: DataLineOptions) {}

  push(chunk: Buffer): void {
    let start = 0;
    if (this.open) {
      const newline = chunk.indexOf(LF);
      if (newline === -1) return this.keep(chunk);
      this.keep(chunk.subarray(0, newline));
      if (!this.skipping && this.held.size > 0) this.line(this.held.take(), false);
      this.reset();
      start = newline + 1;
    }
    // Reads usually end on a line end: then no search is needed to find it.
    const lastNewline = chunk[chunk.length - 1] === LF ? chunk.length - 1 : chunk.lastIndexOf(LF);
    if (lastNewline >= start) {
      this.wholeLines(chunk, start, lastNewline);
      start = lastNewline + 1;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  /** The whole lines of `chunk[start, lastNewline]`: only those holding the needle are handed on. */
  private wholeLines(chunk: Buffer, start: number, lastNewline: number): void {
    const { needle, rareAt } = this.options;
    let at = findNeedle(chunk, start, needle, rareAt);
    while (at !== -1 && at < lastNewline) {
      const lineStart = Math.max(start, chunk.lastIndexOf(LF, at) + 1);
      const lineEnd = chunk.indexOf(LF, at);
      this.line(chunk.subarray(lineStart, lineEnd), true);
      at = findNeedle(chunk, lineEnd + 1, needle, rareAt);
    }
  }

  private reset(): void {
    this.held.clear();
    this.open = false;
    this.skipping = false;
    this.mentions = false;
    this.prefixChecked = false;
  }

  /** Adds a piece of the unfinished line, or gives the line up when it cannot matter. */
  private keep(piece: Buffer): void {
    this.open = true;
    if (this.skipping) return;
    const { needle, lineCap, mentionCap } = this.options;
    const held = this.held;
    const total = held.size + piece.length;
    if (total > lineCap && !this.mentions) {
      // One native search over at most the cap plus this piece, done once per line.
      this.mentions = Buffer.concat([...held.pieces, piece], total).includes(needle);
      if (!this.mentions) return void (this.skipping = true);
    }
    if (total > mentionCap) return void (this.skipping = true);
    held.add(piece, true);
    if (!this.prefixChecked && held.size >= 5) {
      this.prefixChecked = true;
      const head = held.pieces.length === 1 ? (held.pieces[0] ?? piece) : Buffer.concat(held.pieces, held.size);
      if (!startsWithDataColon(head)) this.skipping = true;
    }
  }

  /** A whole line: handed on when it is a data line with the needle, under the cap. */
  private line(bytes: Buffer, known: boolean): void {
    const { needle, mentionCap, onLine } = this.options;
    if (bytes.length > mentionCap || bytes.length < 5 || !startsWithDataColon(bytes)) return;
    if (known || bytes.indexOf(needle, 5) !== -1) onLine(bytes);
  }
}
