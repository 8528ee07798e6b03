import pino, { type Logger } from 'pino';
import { DEFAULT_LOG_LEVEL, type LogLevel } from './log-level';
import type { LineSink } from './file-writer';
import { createRotatingFile } from './rotating-file';
import { functionSink, stdoutSink } from './terminal-sink';

/** Where the human-readable lines go: the process's stdout (asynchronously), a function (tests, embedding), or nowhere. */
export type TerminalTarget = 'stdout' | ((line: string) => void) | null;

export interface LeewayLoggerOptions {
  level?: LogLevel;
  terminal: TerminalTarget;
  /** Runs over every serialised line before any sink sees it (the known-secrets redactor). */
  redact: (line: string) => string;
  now: () => number;
}

/**
 * Field names that hold credentials, censored by pino itself at the top level of a logged object.
 * Only top-level paths: fast-redact's wildcards cost ~25 µs a line; a secret nested anywhere is
 * caught by value by the line redactor, which every line passes through.
 */
/** How long a line may wait to be written with the next ones, and how much text forces a write at once. */
const BATCH_MS = 50;
const BATCH_BYTES = 64 * 1024;

const REDACT_PATHS = [
  'secret',
  'apiKey',
  'accessToken',
  'refreshToken',
  'authorization',
  'cookie',
  'token',
  'password',
];

/**
 * The core's one logger: pino (JSON, levels, `redact` paths) into a destination that redacts each
 * line once, then writes it human-readable to the terminal and as JSON to the log file when one is
 * attached. Neither write touches the disk synchronously.
 */
export function createLeewayLogger(options: LeewayLoggerOptions) {
  const terminal =
    options.terminal === null ? null : options.terminal === 'stdout' ? stdoutSink() : functionSink(options.terminal);
  let file: LineSink | null = null;
  // Lines are gathered for a moment and written as one batch: under load that is a few writes a
  // second instead of two syscalls and a redaction pass per request (the bench's CPU per request).
  const batched = typeof options.terminal !== 'function';
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flushPending = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending === '') return;
    const safe = options.redact(pending);
    pending = '';
    file?.write(safe);
    terminal?.(safe);
  };
  const write = (line: string): void => {
    pending += line;
    // A function terminal (tests, embedders) reads each line as it happens.
    if (!batched || pending.length >= BATCH_BYTES) flushPending();
    else timer ??= setTimeout(flushPending, BATCH_MS).unref();
  };
  const destination = { write };
  const logger: Logger = pino(
    {
      level: options.level ?? DEFAULT_LOG_LEVEL,
      base: null,
      timestamp: () => `,"time":${options.now()}`,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    destination,
  );
  /** Stops writing the file once what it buffered is written (stop, or the data directory is gone). */
  const detachFile = async (): Promise<void> => {
    flushPending();
    const closing = file;
    file = null;
    await closing?.close();
  };
  return {
    logger,
    /**
     * A line already serialised as pino would (the request line, see request-json), into the same
     * batch, redaction and outputs as every pino line: pino's generic path is skipped, nothing else.
     */
    writeLine: write,
    /** JSON lines into `<dir>/leeway.log` from now on (rotated; see rotating-file). */
    attachFile(dir: string, onError: (error: Error) => void = () => undefined): void {
      file ??= createRotatingFile({ dir, onError });
    },
    detachFile,
    /** Stop: the file is detached once every line so far is in it (the terminal flushes itself at exit). */
    flush: detachFile,
    /** Writes the lines gathered so far now (tests, and before reading the file). */
    flushNow: flushPending,
  };
}

export type LeewayLogger = ReturnType<typeof createLeewayLogger>;
