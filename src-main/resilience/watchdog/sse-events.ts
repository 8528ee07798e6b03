/** One dispatched SSE event: its `event:` name (null when absent) and joined `data:` lines. */
export interface WatchedEvent {
  event: string | null;
  data: string;
}

/** An unfinished line past this is given up (counted as nothing): the watchdog never holds a stream. */
const LINE_CAP = 256 * 1024;

/**
 * Splits decoded SSE text into events on blank lines, keeping only the trailing unfinished line
 * and the event being built between calls. Comments (`:`) dispatch nothing.
 */
export function createSseEventSplitter(): (text: string) => WatchedEvent[] {
  let partial = '';
  let skipping = false;
  let event: string | null = null;
  let data: string[] = [];
  const onLine = (raw: string, out: WatchedEvent[]) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') {
      if (data.length > 0) out.push({ event, data: data.join('\n') });
      event = null;
      data = [];
    } else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line === 'data' || line.startsWith('data:')) data.push(line.slice(5).trimStart());
  };
  return (text) => {
    const out: WatchedEvent[] = [];
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      if (!skipping) onLine(partial + text.slice(start, newline), out);
      partial = '';
      skipping = false;
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    if (!skipping && start < text.length) {
      partial += text.slice(start);
      if (partial.length > LINE_CAP) {
        partial = '';
        skipping = true;
      }
    }
    return out;
  };
}
