import type { IndexedPool } from './pool-index';
import type { ServedCost } from './quota-record';
import type { SignalWindow } from '../../kernel/upstream-signals';

type Growth = ReadonlyMap<SignalWindow, number> | null;

/** Counts one served answer; must not throw (the queue runs it from a timer). */
export type RecordDrain = (ip: IndexedPool, storeKey: string, served: ServedCost, growth: Growth, now: number) => void;

interface Slot {
  ip: IndexedPool | null;
  storeKey: string;
  served: ServedCost | null;
  growth: Growth;
  now: number;
}

/**
 * The post-hook's queue (QPIPE-5): every answer recorded during one turn of the loop is counted by
 * ONE `setImmediate` after it, so an answer costs neither a timer nor a closure of its own. Slots are
 * reused: once warm, recording allocates nothing here. `drain` gets each entry once, in order.
 */
export function createRecordQueue(drain: RecordDrain): {
  push(ip: IndexedPool, storeKey: string, served: ServedCost, growth: Growth, now: number): void;
} {
  const slots: Slot[] = [];
  let count = 0;
  let scheduled = false;

  const run = (): void => {
    scheduled = false;
    for (let i = 0; i < count; i++) {
      const slot = slots[i];
      if (slot === undefined) continue;
      const { ip, storeKey, served, growth, now } = slot;
      // Cleared first: a counted entry must not keep a response's headers alive until its slot is reused.
      slot.ip = null;
      slot.served = null;
      slot.growth = null;
      if (ip !== null && served !== null) drain(ip, storeKey, served, growth, now);
    }
    count = 0;
  };

  return {
    push(ip, storeKey, served, growth, now) {
      const slot = slots[count];
      if (slot === undefined) slots.push({ ip, storeKey, served, growth, now });
      else {
        slot.ip = ip;
        slot.storeKey = storeKey;
        slot.served = served;
        slot.growth = growth;
        slot.now = now;
      }
      count += 1;
      if (!scheduled) {
        scheduled = true;
        setImmediate(run);
      }
    },
  };
}
