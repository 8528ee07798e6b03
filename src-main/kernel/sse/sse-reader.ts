import { HeldBytes } from './held-bytes';
import { COLON, CR, LF, type SseEvent } from './sse-lines';

/**
 * The most one event may hold while it is read: its finished `data` lines plus its unfinished line.
 * A reader of whole events must hold an event to hand it on (unlike the byte relay, which holds
 * nothing), so this bounds memory per stream. Real events are far smaller: deltas are a few tokens,
 * and the biggest single events providers send (a whole answer from a gateway that fakes
 * streaming, a base64 image in one chunk) are a few MB. 64 MiB is twice the 32 MB line issue 21
 * tests with; translating an event that size takes 250-350 MB and about half a second of CPU.
 */
export const SSE_EVENT_CAP = 64 * 1024 * 1024;

/** An event passed the reader's cap (`overCap: 'throw'`); the translators name it to the client. */
export class SseEventTooLarge extends Error {
  constructor(readonly cap: number) {
    super(`an SSE event over ${cap / (1024 * 1024)} MiB`);
    this.name = 'SseEventTooLarge';
  }
}

export interface SseReaderOptions {
  /** Bytes one event may hold (default SSE_EVENT_CAP). */
  cap?: number;
  /** Past the cap: throw SseEventTooLarge (default), or skip the event and read on from its blank line. */
  overCap?: 'throw' | 'skip';
}

/**
 * The SSE reader in its events mode: bytes in (split anywhere, even inside a UTF-8 sequence), whole
 * events out, read as a browser's EventSource reads them. The modes that need less are in this
 * folder too: where events end and the head of the last one (`last-event.ts`), the data lines that
 * mention a word (`data-lines.ts`).
 *
 * Each byte is searched once: a read is searched for line ends only within itself, and an
 * unfinished line is kept as the reads it came in, joined and decoded once when its line end
 * arrives (a line end never falls inside a UTF-8 sequence, so whole lines decode on their own).
 * Comment lines and skipped events are never kept.
 */
export interface SseReader {
  /** The events this read finished. Throws SseEventTooLarge once an event passes the cap (`overCap: 'throw'`). */
  push(chunk: Buffer): SseEvent[];
  /** The last block when the stream ends without its blank line (line-based clients would read it). */
  end(): SseEvent[];
}

export function createSseReader(options: SseReaderOptions = {}): SseReader {
  return new EventReader(options.cap ?? SSE_EVENT_CAP, options.overCap === 'skip');
}

class EventReader implements SseReader {
  /** A line has begun and not ended yet: its bytes so far (none kept for a comment or a skipped event). */
  private open = false;
  private openSize = 0;
  private openFirst = 0;
  private readonly held = new HeldBytes();
  private event: string | null = null;
  private data: string[] = [];
  /** UTF-16 units in `data`, which never exceed the bytes they were decoded from. */
  private dataSize = 0;
  /** The event being read passed the cap (`overCap: 'skip'`): its lines are ignored until its blank line. */
  private skipping = false;

  constructor(
    private readonly cap: number,
    private readonly skipOver: boolean,
  ) {}

  push(chunk: Buffer): SseEvent[] {
    const out: SseEvent[] = [];
    let start = 0;
    if (this.open) {
      const newline = chunk.indexOf(LF);
      if (newline === -1) {
        this.hold(chunk, 0);
        return out;
      }
      const text = this.takeHeld(chunk.subarray(0, newline));
      if (text !== null) this.line(text, out);
      start = newline + 1;
    }
    // Reads usually end on a line end: then no search is needed to find the last one.
    const last = chunk[chunk.length - 1] === LF ? chunk.length - 1 : chunk.lastIndexOf(LF);
    if (last >= start) {
      this.lines(chunk.toString('utf8', start, last), out);
      start = last + 1;
    }
    this.hold(chunk, start);
    return out;
  }

  end(): SseEvent[] {
    const out: SseEvent[] = [];
    const rest = this.open ? this.takeHeld(Buffer.alloc(0)) : null;
    if (rest !== null && rest !== '') this.line(rest, out);
    this.line('', out);
    return out;
  }

  /** A read's whole lines, decoded at once and split in the string. */
  private lines(text: string, out: SseEvent[]): void {
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      this.line(text.slice(from, newline), out);
      from = newline + 1;
    }
    this.line(from === 0 ? text : text.slice(from), out);
  }

  private line(text: string, out: SseEvent[]): void {
    const length = text.charCodeAt(text.length - 1) === CR ? text.length - 1 : text.length;
    if (length === 0) return this.dispatch(out);
    if (this.skipping || text.charCodeAt(0) === COLON) return;
    const colon = text.indexOf(':');
    const fieldEnd = colon === -1 || colon > length ? length : colon;
    let from = fieldEnd === length ? length : fieldEnd + 1;
    if (from < length && text.charCodeAt(from) === 0x20) from++;
    if (fieldEnd === 4 && text.startsWith('data')) {
      const value = text.slice(from, length);
      this.dataSize += value.length;
      if (this.dataSize > this.cap) return this.overCap();
      this.data.push(value);
    } else if (fieldEnd === 5 && text.startsWith('event')) this.event = text.slice(from, length);
  }

  /** A blank line: the event read so far goes out (unless skipped or empty), and the next begins. */
  private dispatch(out: SseEvent[]): void {
    const data = this.data;
    if (data.length > 0 && !this.skipping)
      out.push({ event: this.event, data: data.length === 1 ? (data[0] ?? '') : data.join('\n') });
    this.event = null;
    if (data.length > 0) this.data = [];
    this.dataSize = 0;
    this.skipping = false;
  }

  private overCap(): void {
    if (!this.skipOver) throw new SseEventTooLarge(this.cap);
    this.skipping = true;
    this.held.clear();
  }

  /** Keeps `chunk[from…]`, the start or a piece of a line that has not ended yet. */
  private hold(chunk: Buffer, from: number): void {
    if (from >= chunk.length) return;
    if (!this.open) {
      this.open = true;
      this.openFirst = chunk[from] ?? 0;
    }
    this.openSize += chunk.length - from;
    if (this.skipping || this.openFirst === COLON) return;
    if (this.dataSize + this.openSize > this.cap) return this.overCap();
    this.held.add(from === 0 ? chunk : chunk.subarray(from), false);
  }

  /** Ends the open line with `tail` (its bytes before the line end): its text, decoded once; null when it was not kept. */
  private takeHeld(tail: Buffer): string | null {
    const size = this.openSize + tail.length;
    const first = this.openFirst;
    this.open = false;
    this.openSize = 0;
    if (this.skipping) {
      // A skipped event still ends at its blank line, which may have been held as a lone CR.
      this.held.clear();
      return size === 0 || (size === 1 && first === CR) ? '' : null;
    }
    if (first === COLON) return null;
    if (this.dataSize + size > this.cap) {
      this.overCap();
      return null;
    }
    return this.held.take(tail).toString('utf8');
  }
}
