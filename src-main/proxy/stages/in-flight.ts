import type { HeldRequestView } from '../../../src-shared/domain/held';
import { createHeldBoard, type HeldBoard } from '../held/held-board';
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

/**
 * Issue 24 §2: the reason a held request's signal carries when the operator cancels it. Like the
 * shutdown's, the client is still there and is told at once, in its own format, not to retry.
 */
export class CancelledByOperator extends Error {
  readonly code = 'request_cancelled';
  constructor(what: string) {
    super(`Cancelled in Leeway while it waited for ${what}.`);
    this.name = 'CancelledByOperator';
  }
}

/** What a request ended by Leeway itself (shutdown, an operator's cancel) is answered with; null: the client left. */
export function endErrorOf(reason: unknown): AppError | null {
  if (reason instanceof ShuttingDown) return shutdownError();
  if (reason instanceof CancelledByOperator)
    return { code: 'request_cancelled', message: reason.message, shouldRetry: false };
  return null;
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
  /** Issue 24 §2: the running requests that wait right now, and what for. */
  readonly held: HeldBoard;
}

export function createInFlightRequests(onHeldChange?: (held: HeldRequestView[]) => void): InFlightRequests {
  const running = new Set<Abortable>();
  const held = createHeldBoard(onHeldChange);
  return {
    held,
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
