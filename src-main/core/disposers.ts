/** How a stop treats the requests in flight (issue 21 §9). */
export interface StopOptions {
  /** How long they may run on before they are ended with a `shutdown` error; 0 (default) ends them at once. */
  graceMs?: number;
}

/** How the stack is run: a stop's grace, and whether it undoes a start that failed half-way. */
export interface DisposeOptions {
  graceMs: number;
  /** A refused start: what it created (the data directory) goes again. */
  failedStart: boolean;
}

export type Disposer = (options: DisposeOptions) => void | Promise<void>;

/**
 * The disposer stack (issue 22): each resource pushes its own close as it is created, and a stop
 * (or a start that failed half-way) runs them in reverse, so nothing is closed under a user and
 * nothing that was never opened is closed.
 */
export interface Disposers {
  push(close: Disposer): void;
  /** Runs every close once, newest first; a close that throws does not skip the rest, and the first throw is rethrown at the end. */
  run(options: DisposeOptions): Promise<void>;
}

export function createDisposers(): Disposers {
  const stack: Disposer[] = [];
  return {
    push: (close) => void stack.push(close),
    async run(options) {
      let failure: { error: unknown } | null = null;
      for (let close = stack.pop(); close !== undefined; close = stack.pop()) {
        try {
          await close(options);
        } catch (error) {
          failure ??= { error };
        }
      }
      if (failure !== null) throw failure.error;
    },
  };
}
