import type { AppError } from '../../../src-shared/contract/errors';

/**
 * Issue 21 §9: the reason a request's signal carries when Leeway stops with the request still
 * running past the shutdown grace. Every stage already ends on an aborted signal; this reason tells
 * it the client is still there and must be told, in its own format, rather than left.
 */
export class ShuttingDown extends Error {
  readonly code = 'shutdown';
  constructor() {
    super('Leeway is shutting down; the request was ended before it finished. Retry it once Leeway is back.');
    this.name = 'ShuttingDown';
  }
}

export function isShuttingDown(reason: unknown): reason is ShuttingDown {
  return reason instanceof ShuttingDown;
}

/** The error a request ended by the shutdown is answered with (503, worth retrying later). */
export function shutdownError(): AppError {
  return { code: 'shutdown', message: new ShuttingDown().message };
}

/** Anything a request's stages stop on: the RequestSignal's abort. */
export interface Abortable {
  abort(reason: unknown): void;
}

/**
 * The model requests running now, by their abort signals: the core waits for them during the
 * shutdown grace, then ends the rest with `ShuttingDown`. One Set add and delete per request.
 */
export interface InFlightRequests {
  add(request: Abortable): void;
  delete(request: Abortable): void;
  readonly size: number;
  /** Aborts every request still running with `ShuttingDown`; returns how many. */
  endAll(): number;
}

export function createInFlightRequests(): InFlightRequests {
  const running = new Set<Abortable>();
  return {
    add: (request) => void running.add(request),
    delete: (request) => void running.delete(request),
    get size() {
      return running.size;
    },
    endAll() {
      const all = [...running];
      for (const request of all) request.abort(new ShuttingDown());
      return all.length;
    },
  };
}
