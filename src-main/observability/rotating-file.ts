import { mkdirSync, statSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileWriter, type LineSink } from './file-writer';

export interface RotatingFileOptions {
  dir: string;
  name?: string;
  /** The live file is rotated before it would pass this size. */
  maxBytes?: number;
  /** Files kept, the live one included: `leeway.log`, `leeway.log.1` … `.(maxFiles - 1)`. */
  maxFiles?: number;
  onError?: (error: Error) => void;
}

export const LOG_FILE_NAME = 'leeway.log';
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_FILES = 5;
/** Lines held while a rotation renames files; a stuck disk must not grow memory without end. */
const MAX_PENDING_LINES = 10_000;

const ignoreMissing = (error: unknown): void => {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
};

/**
 * JSON lines in `<dir>/leeway.log`, size-capped: when the next line would pass `maxBytes`, the
 * writer is closed, the files shift by one (the oldest is dropped) and a fresh file opens; lines
 * arriving meanwhile wait in memory. Every disk operation is asynchronous, so a request never waits.
 */
export function createRotatingFile(options: RotatingFileOptions): LineSink {
  const name = options.name ?? LOG_FILE_NAME;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxFiles = Math.max(1, options.maxFiles ?? DEFAULT_MAX_FILES);
  const onError = options.onError ?? (() => undefined);
  const path = join(options.dir, name);
  // Once, at open (start-up): the folder and the live file's size.
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    size = 0;
  }
  let writer = createFileWriter(path, onError);
  let rotation: Promise<void> | null = null;
  let pending: string[] = [];
  let closed = false;

  const shift = async (): Promise<void> => {
    const numbered = (i: number) => `${path}.${i}`;
    if (maxFiles === 1) return unlink(path).catch(ignoreMissing);
    await unlink(numbered(maxFiles - 1)).catch(ignoreMissing);
    for (let i = maxFiles - 2; i >= 1; i--) await rename(numbered(i), numbered(i + 1)).catch(ignoreMissing);
    await rename(path, numbered(1)).catch(ignoreMissing);
  };
  const rotate = async (): Promise<void> => {
    await writer.close();
    try {
      await shift();
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
    }
    size = 0;
    writer = createFileWriter(path, onError);
    rotation = null;
    // What waited goes through the same door: enough of it starts the next rotation, keeping the cap.
    const waiting = pending;
    pending = [];
    for (const line of waiting) accept(line);
  };
  const accept = (line: string): void => {
    if (rotation !== null) {
      if (pending.length < MAX_PENDING_LINES) pending.push(line);
      return;
    }
    const bytes = Buffer.byteLength(line);
    if (size > 0 && size + bytes > maxBytes) {
      pending.push(line);
      rotation = rotate();
      return;
    }
    size += bytes;
    writer.write(line);
  };

  return {
    write(line) {
      if (!closed) accept(line);
    },
    async close() {
      if (closed) return;
      closed = true;
      // Rotations in flight reopen and write what waited (possibly rotating again); then the last writer is closed.
      while (rotation !== null) await rotation;
      await writer.close();
    },
  };
}
