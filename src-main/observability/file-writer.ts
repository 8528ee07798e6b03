import { closeSync, open, write, writeSync } from 'node:fs';

/** An asynchronous sink: `write` never blocks on the disk; `close` resolves once everything written reached the file. */
export interface LineSink {
  write(line: string): void;
  close(): Promise<void>;
}

/** Lines waiting for the disk beyond this are dropped (and counted): a stuck disk must not grow memory without end. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/**
 * Appends lines to a file with asynchronous `fs.write` calls, one in flight at a time, batching
 * whatever arrived meanwhile — pino's sonic-boom in spirit, but `close` only waits for a write in
 * flight, then ends synchronously, without the fsync sonic-boom makes (stop must stay quick).
 */
export function createFileWriter(path: string, onError: (error: Error) => void): LineSink {
  let fd: number | null = null;
  let queue: string[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  let busy = true; // opening
  let closing: (() => void) | null = null;
  let dead = false;
  let ended: Promise<void> | null = null;

  /**
   * The end, once no write is in flight: what is left is written and the file closed synchronously.
   * That is stop's work, never a request's, and it keeps a stop from yielding to the event loop.
   */
  const finish = (): void => {
    const done = closing;
    if (!done) return;
    closing = null;
    const f = fd;
    fd = null;
    if (f !== null) {
      try {
        const rest = Buffer.from(queue.join(''));
        for (let offset = 0; offset < rest.length;) offset += writeSync(f, rest, offset);
        closeSync(f);
      } catch (error) {
        onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
    queue = [];
    done();
  };
  const writeAll = (f: number, chunk: Buffer, offset: number, done: (error: Error | null) => void): void => {
    write(f, chunk, offset, chunk.length - offset, null, (error, written) => {
      if (error) return done(error);
      if (offset + written < chunk.length) return writeAll(f, chunk, offset + written, done);
      done(null);
    });
  };
  const pump = (): void => {
    if (busy) return;
    if (closing || fd === null || queue.length === 0) return finish();
    if (dropped > 0) {
      queue.push(`{"level":40,"msg":"log file: ${dropped} lines dropped while the disk was slow"}\n`);
      dropped = 0;
    }
    const chunk = Buffer.from(queue.join(''));
    queue = [];
    queuedBytes = 0;
    busy = true;
    writeAll(fd, chunk, 0, (error) => {
      busy = false;
      if (error) onError(error);
      pump();
    });
  };
  open(path, 'a', 0o600, (error, opened) => {
    busy = false;
    if (error) {
      dead = true;
      queue = [];
      onError(error);
    } else fd = opened;
    pump();
  });

  return {
    write(line) {
      if (dead || closing) return;
      if (queuedBytes + line.length > MAX_QUEUED_BYTES) {
        dropped++;
        return;
      }
      queue.push(line);
      queuedBytes += line.length;
      if (!busy) pump();
    },
    close() {
      ended ??= new Promise((resolve) => {
        closing = resolve;
        if (!busy) pump();
        dead = true;
      });
      return ended;
    },
  };
}
