import { DEFAULT_REQUEST_QUEUE_MAX_WAIT_MS } from './engine/queue-admission';
import { emptyWaitWindow, recordWait, waitPercentiles, type WaitWindow } from './engine/wait-window';
import { requestQueueSchema, type RequestQueueSettings } from '../../../src-shared/domain/resilience-request-queue';

/**
 * Outcome of waiting for a connection slot. `timed_out`: the queue-wait budget ran out (QUEUE-3);
 * `queue_full`: refused before joining (QUEUE-8); neither ever reaches the upstream.
 */
export type SlotWait = 'acquired' | 'timed_out' | 'queue_full' | 'aborted';

interface Waiter {
  grant(): void;
}

/** One connection's queue as the dashboard sees it (`queues.list`). */
export interface SlotQueueStat {
  connectionId: string;
  queued: number;
  inFlight: number;
  /** Recent waits for a slot (immediate ones count as 0 ms); null before any. */
  waitP50Ms: number | null;
  waitP95Ms: number | null;
  samples: number;
}

export interface ConnectionSlotsOptions {
  /** The requestQueue settings in force (env < stored, QUEUE-7); read per request so a change applies at once. */
  settings?: () => RequestQueueSettings;
  now?: () => number;
}

const DEFAULT_QUEUE: RequestQueueSettings = requestQueueSchema.parse({});

/**
 * Per-connection semaphores for `maxConcurrent` (CONC-2) with the request queue below them
 * (QUEUE-1): a hand-written FIFO of waiters per connection. A released slot goes straight to the
 * oldest waiter; a waiter leaves on its budget (QUEUE-3), its client leaving, or never joins when
 * the queue is at `maxDepth` (QUEUE-8). Connections without maxConcurrent never get here (no cost).
 */
export function createConnectionSlots(options: ConnectionSlotsOptions = {}) {
  const settings = options.settings ?? (() => DEFAULT_QUEUE);
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, number>();
  const queues = new Map<string, Waiter[]>();
  const waits = new Map<string, WaitWindow>();

  const take = (id: string) => inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
  const sample = (id: string, waitedMs: number, at: number) => {
    let window = waits.get(id);
    if (!window) waits.set(id, (window = emptyWaitWindow()));
    recordWait(window, waitedMs, at);
  };

  return {
    tryAcquire(id: string, max: number): boolean {
      if ((inFlight.get(id) ?? 0) >= max) return false;
      take(id);
      sample(id, 0, now());
      return true;
    },
    /** Waits at most `waitMs` for a slot; with `maxDepth` > 0 a full queue refuses at once, before enqueueing. */
    acquire(
      id: string,
      max: number,
      signal: AbortSignal,
      waitMs: number = DEFAULT_REQUEST_QUEUE_MAX_WAIT_MS,
      maxDepth = 0,
    ): Promise<SlotWait> {
      if ((inFlight.get(id) ?? 0) < max) {
        take(id);
        sample(id, 0, now());
        return Promise.resolve('acquired');
      }
      const queue = queues.get(id) ?? [];
      if (maxDepth > 0 && queue.length >= maxDepth) return Promise.resolve('queue_full');
      if (signal.aborted) return Promise.resolve('aborted');
      queues.set(id, queue);
      const joined = now();
      return new Promise((resolve) => {
        const leave = (outcome: SlotWait) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          const at = queue.indexOf(waiter);
          if (at !== -1) queue.splice(at, 1);
          if (queue.length === 0 && queues.get(id) === queue) queues.delete(id);
          if (outcome === 'acquired') {
            const t = now();
            sample(id, t - joined, t);
          }
          resolve(outcome);
        };
        const onAbort = () => leave('aborted');
        // The slot is handed over by release(), already counted for this waiter.
        const waiter: Waiter = { grant: () => leave('acquired') };
        const timer = setTimeout(() => leave('timed_out'), waitMs);
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(waiter);
      });
    },
    release(id: string): void {
      const next = queues.get(id)?.[0];
      if (next) {
        // Hand the slot straight to the oldest waiter: the count stays the same.
        next.grant();
        return;
      }
      const n = (inFlight.get(id) ?? 1) - 1;
      if (n <= 0) inFlight.delete(id);
      else inFlight.set(id, n);
    },
    inFlight: (id: string) => inFlight.get(id) ?? 0,
    queued: (id: string) => queues.get(id)?.length ?? 0,
    /** The requestQueue settings in force now. */
    settings,
    /** Every connection with a slot taken, a waiter or a recent wait. */
    stats(at: number = now()): SlotQueueStat[] {
      const ids = new Set([...inFlight.keys(), ...queues.keys(), ...waits.keys()]);
      return [...ids].map((id) => {
        const window = waits.get(id);
        const p = window ? waitPercentiles(window, at) : null;
        return {
          connectionId: id,
          queued: queues.get(id)?.length ?? 0,
          inFlight: inFlight.get(id) ?? 0,
          waitP50Ms: p?.p50 ?? null,
          waitP95Ms: p?.p95 ?? null,
          samples: p?.samples ?? 0,
        };
      });
    },
  };
}

export type ConnectionSlots = ReturnType<typeof createConnectionSlots>;
