import { randomUUID } from 'node:crypto';

/** Strings at least this long are escaped once per stream and shared by the events that repeat them. */
export const LONG_STRING = 64 * 1024;

export interface SharedJsonText {
  /** The JSON text (built by concatenation: the long strings in it are not copied). */
  data: string;
  /** The same text in order, each long string a piece of its own; absent when the value held none. */
  pieces?: string[];
}

/**
 * JSON for the events of one stream that repeat long strings. A Responses stream repeats a finished
 * text in up to five events (the delta, `output_text.done`, `content_part.done`,
 * `output_item.done`, `response.completed`): escaping a 32 MB text five times, and copying it into
 * five event strings, blocked the event loop for seconds (issue 21 §2). Here each distinct long
 * string is escaped once; an event is serialised with a marker in its place, cut at the markers and
 * joined around the escaped string. The marker is random per stream and its count is checked, so a
 * string that happens to hold it only costs the plain serialisation.
 */
export class SharedJson {
  private readonly quotedMarker: string;
  private readonly escaped = new Map<string, string>();

  /** `marker`: a test may choose it, to see a collision handled. */
  constructor(private readonly marker = `\u0001${randomUUID()}\u0001`) {
    this.quotedMarker = JSON.stringify(marker);
  }

  stringify(value: unknown): SharedJsonText {
    const long: string[] = [];
    // JSON.stringify calls the replacer in the order it writes: the k-th marker is the k-th long string.
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner !== 'string' || inner.length < LONG_STRING) return inner;
      long.push(inner);
      return this.marker;
    });
    if (long.length === 0) return { data: text };
    const cut = text.split(this.quotedMarker);
    if (cut.length !== long.length + 1) return { data: JSON.stringify(value) };
    const pieces: string[] = [];
    let data = '';
    cut.forEach((part, i) => {
      pieces.push(part);
      data += part;
      const string = long[i];
      if (string === undefined) return;
      const quoted = this.quote(string);
      pieces.push(quoted);
      data += quoted;
    });
    return { data, pieces };
  }

  /** Forgets the escaped strings (the stream's answer is complete). */
  clear(): void {
    this.escaped.clear();
  }

  private quote(string: string): string {
    let quoted = this.escaped.get(string);
    if (quoted === undefined) {
      quoted = JSON.stringify(string);
      this.escaped.set(string, quoted);
    }
    return quoted;
  }
}
