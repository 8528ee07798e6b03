import { StringDecoder } from 'node:string_decoder';
import type { SseOut } from './translate-types';

/**
 * An incremental SSE parser for upstream streams that are translated: bytes in (split anywhere,
 * even inside a UTF-8 sequence), complete events out. Comments are dropped; multi-line `data` is
 * joined with "\n" as the spec says. Only the unfinished line is kept between chunks.
 */
export interface SseReader {
  push(chunk: Buffer): SseOut[];
  /** The last block when the stream ends without its blank line (line-based clients would read it). */
  end(): SseOut[];
}

export function createSseReader(): SseReader {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let event: string | null = null;
  let data: string[] = [];

  const line = (text: string, out: SseOut[]) => {
    const bare = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (bare === '') {
      if (data.length > 0) out.push({ event, data: data.join('\n') });
      event = null;
      data = [];
      return;
    }
    if (bare.startsWith(':')) return;
    const colon = bare.indexOf(':');
    const field = colon === -1 ? bare : bare.slice(0, colon);
    let value = colon === -1 ? '' : bare.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };

  return {
    push(chunk) {
      const out: SseOut[] = [];
      const text = partial + decoder.write(chunk);
      let start = 0;
      let newline = text.indexOf('\n');
      while (newline !== -1) {
        line(text.slice(start, newline), out);
        start = newline + 1;
        newline = text.indexOf('\n', start);
      }
      partial = text.slice(start);
      return out;
    },
    end() {
      const out: SseOut[] = [];
      const rest = partial + decoder.end();
      partial = '';
      if (rest !== '') line(rest, out);
      line('', out);
      return out;
    },
  };
}

/** Events back to wire text: `event:` only when named; JSON data never holds a raw newline. */
export function writeSse(events: readonly SseOut[]): string {
  let text = '';
  for (const e of events) {
    if (e.event !== null) text += `event: ${e.event}\n`;
    text += `data: ${e.data}\n\n`;
  }
  return text;
}
