/** Timers and clock, injected so tests drive time with numbers. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface Throttle {
  /** Runs now if the last run is at least `intervalMs` old, else once at the end of the interval. */
  request(): void;
  cancel(): void;
}

/** At most one run per interval; requests inside the interval coalesce into one trailing run. */
export function createThrottle(run: () => void, intervalMs: number, clock: Clock = systemClock): Throttle {
  let lastRun = Number.NEGATIVE_INFINITY;
  let pending: unknown = null;
  const fire = (): void => {
    pending = null;
    lastRun = clock.now();
    run();
  };
  return {
    request() {
      if (pending !== null) return;
      const wait = lastRun + intervalMs - clock.now();
      if (wait <= 0) fire();
      else pending = clock.setTimeout(fire, wait);
    },
    cancel() {
      if (pending !== null) clock.clearTimeout(pending);
      pending = null;
    },
  };
}
