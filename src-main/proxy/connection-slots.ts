/** Outcome of waiting for a connection slot. */
export type SlotWait = 'acquired' | 'fail_open' | 'aborted';

interface Waiter {
  grant(): void;
}

/**
 * Per-connection semaphores for `maxConcurrent` (CONC-2): shared subscription accounts (GLM,
 * MiniMax) answer extra parallel requests with 429s. Fail-open (CONC-4): a request that waited its
 * budget proceeds without a slot rather than being refused.
 */
export function createConnectionSlots() {
  const inFlight = new Map<string, number>();
  const queues = new Map<string, Waiter[]>();

  const take = (id: string) => inFlight.set(id, (inFlight.get(id) ?? 0) + 1);

  return {
    tryAcquire(id: string, max: number): boolean {
      if ((inFlight.get(id) ?? 0) >= max) return false;
      take(id);
      return true;
    },
    acquire(id: string, max: number, signal: AbortSignal, waitMs: number): Promise<SlotWait> {
      if ((inFlight.get(id) ?? 0) < max) {
        take(id);
        return Promise.resolve('acquired');
      }
      return new Promise((resolve) => {
        const queue = queues.get(id) ?? [];
        queues.set(id, queue);
        const leave = (outcome: SlotWait) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          const at = queue.indexOf(waiter);
          if (at !== -1) queue.splice(at, 1);
          resolve(outcome);
        };
        const onAbort = () => leave('aborted');
        // The slot is handed over by release(), already counted for this waiter.
        const waiter: Waiter = { grant: () => leave('acquired') };
        const timer = setTimeout(() => leave('fail_open'), waitMs);
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
  };
}

export type ConnectionSlots = ReturnType<typeof createConnectionSlots>;
