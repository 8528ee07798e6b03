import { fail, ok, type Result } from '../../src-shared/contract/errors';
import { isMethodName } from '../../src-shared/contract/methods';
import type { Router } from '../api/router';
import { describeStartFault, storageFaultOf } from '../db/storage-fault';
import { createEventBus, type EventBus } from '../kernel/event-bus';
import { createObservability } from '../observability/observability';
import type { CoreOptions, StartedInfo } from './core-options';
import { createDisposers, type Disposers, type StopOptions } from './disposers';
import { startRun } from './start-run';

export type { CoreOptions, StartedInfo } from './core-options';
export type { StopOptions } from './disposers';

export interface Core {
  start(): Promise<Result<StartedInfo>>;
  /** Stops accepting, ends the requests in flight (after the grace), flushes the log and closes storage. */
  stop(options?: StopOptions): Promise<void>;
  /** The contract's router for both doors; refuses with `storage_unavailable` while not running. */
  router: Router;
  events: EventBus;
}

/** A start that succeeded, until its stop: the only thing that exists only while running. */
interface Run {
  router: Router;
  stop(options: StopOptions): Promise<void>;
}

/**
 * The composition root (issue 22), in phases that each return a value (start-run.ts): the ports
 * bound behind closed gates, the data directory locked, the services over storage, the doors
 * opened onto them. Every resource pushes its close on one disposer stack as it is created; a stop,
 * or a start that failed half-way, runs it in reverse. The logger and the event bus outlive them.
 */
export function createCore(options: CoreOptions): Core {
  const now = options.now ?? Date.now;
  const events = createEventBus();
  // Issue 13 §1–2: one logger (terminal + <dataDir>/logs) and the metrics, fed from the activity entries.
  const obs = createObservability({
    terminal: options.logTerminal !== undefined ? options.logTerminal : options.log ? null : 'stdout',
    ...(options.log ? { tap: options.log } : {}),
    ...(options.logLevel ? { level: options.logLevel } : {}),
    events,
    now,
  });
  let run: Run | null = null;

  const router: Router = {
    call(method, input) {
      if (run !== null) return run.router.call(method, input);
      if (!isMethodName(method)) return Promise.resolve(fail('unknown_method', `Unknown method "${method}"`));
      const idle = 'Leeway is not running: it has not started yet, or has stopped';
      return Promise.resolve(fail('storage_unavailable', idle));
    },
  };

  /** Undoes what a refused start created, and says why in one line (issue 21 §16: never a stack). */
  async function refused<T>(disposers: Disposers, result: Result<T>): Promise<Result<T>> {
    await disposers.run({ graceMs: 0, failedStart: true });
    await obs.flush();
    return result;
  }

  return {
    async start() {
      const disposers = createDisposers();
      try {
        const started = await startRun(options, { events, obs, now }, disposers);
        if (!started.ok) return await refused(disposers, started);
        let stopping: Promise<void> | null = null;
        run = {
          router: started.value.router,
          stop: (opts) => (stopping ??= disposers.run({ graceMs: opts.graceMs ?? 0, failedStart: false })),
        };
        return ok(started.value.started);
      } catch (error) {
        // A disk that refuses the first writes (full, read-only, not ours) ends the start with one line.
        const fault = storageFaultOf(error);
        if (fault === null) throw error;
        return refused(disposers, fail('storage_unavailable', describeStartFault(options.dataDir, fault)));
      }
    },
    async stop(opts = {}) {
      const stopping = run;
      if (stopping !== null) {
        await stopping.stop(opts);
        if (run === stopping) run = null;
      }
      // Last: the final request lines (written while requests settled) reach the terminal and the file.
      await obs.flush();
    },
    router,
    events,
  };
}
