import pino from 'pino';
import { formatTerminalLine } from './terminal-line';

/** Takes serialised (and already redacted) JSON lines, one or a batch, and shows them to a person. */
export type TerminalSink = (json: string) => void;

/** Past this much unwritten text the terminal drops lines: a reader that stops reading must not grow memory. */
const MAX_BUFFERED = 16 * 1024 * 1024;

/**
 * The process's stdout through sonic-boom, pino's asynchronous destination: a write never waits for
 * the terminal. pino registers the stream for a synchronous flush when the process exits, so lines
 * still buffered then are not lost; nothing needs awaiting on stop.
 */
export function stdoutSink(): TerminalSink {
  let sonic: ReturnType<typeof pino.destination> | null = pino.destination({
    dest: 1,
    sync: false,
    maxLength: MAX_BUFFERED,
  });
  sonic.on('error', () => {
    // stdout is gone (a closed pipe, a GUI app without a console): the file still has every line.
    sonic = null;
  });
  // A batch of JSON lines becomes one write of human-readable ones.
  return (batch) => {
    let text = '';
    eachLine(batch, (json) => (text += formatTerminalLine(json)));
    sonic?.write(text);
  };
}

/** A function gets each line human-readable, without its newline (tests, embedders). */
export function functionSink(write: (line: string) => void): TerminalSink {
  return (batch) => eachLine(batch, (json) => write(formatTerminalLine(json).trimEnd()));
}

/** Each JSON line of a batch (each ends with a newline; empty ones skipped), without an array of them. */
function eachLine(batch: string, use: (line: string) => void): void {
  for (let start = 0; start < batch.length;) {
    const newline = batch.indexOf('\n', start);
    const end = newline === -1 ? batch.length : newline;
    if (end > start) use(batch.slice(start, end));
    start = end + 1;
  }
}
