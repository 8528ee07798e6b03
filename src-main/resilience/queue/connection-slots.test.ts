import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnectionSlots } from './connection-slots';

afterEach(() => vi.useRealTimers());

describe('connection slots (maxConcurrent) and the request queue under them', () => {
  it('CONC-2: at most max requests hold a slot; a release hands the slot to the oldest waiter', async () => {
    const slots = createConnectionSlots();
    const signal = new AbortController().signal;
    expect(slots.tryAcquire('c', 1)).toBe(true);
    expect(slots.tryAcquire('c', 1)).toBe(false);
    const first = slots.acquire('c', 1, signal, 10_000);
    const second = slots.acquire('c', 1, signal, 10_000);
    expect(slots.queued('c')).toBe(2);
    slots.release('c');
    expect(await first).toBe('acquired');
    expect(slots.inFlight('c')).toBe(1);
    slots.release('c');
    expect(await second).toBe('acquired');
    slots.release('c');
    expect(slots.inFlight('c')).toBe(0);
    expect(slots.queued('c')).toBe(0);
  });

  it('QUEUE-3: a waiter whose budget runs out times out (it is not given a slot), and an abort leaves the queue', async () => {
    vi.useFakeTimers();
    const slots = createConnectionSlots();
    const controller = new AbortController();
    slots.tryAcquire('c', 1);
    const timedOut = slots.acquire('c', 1, new AbortController().signal, 500);
    const aborted = slots.acquire('c', 1, controller.signal, 10_000);
    vi.advanceTimersByTime(500);
    expect(await timedOut).toBe('timed_out');
    // The timed-out waiter holds nothing: still one request in flight.
    expect(slots.inFlight('c')).toBe(1);
    controller.abort();
    expect(await aborted).toBe('aborted');
    slots.release('c');
    expect(slots.inFlight('c')).toBe(0);
  });

  it('QUEUE-8: with maxDepth 1, job1 runs, job2 waits, job3 is refused at once; job1 and job2 still complete', async () => {
    const slots = createConnectionSlots();
    const signal = new AbortController().signal;
    expect(slots.tryAcquire('c', 1)).toBe(true);
    const job2 = slots.acquire('c', 1, signal, 10_000, 1);
    expect(await slots.acquire('c', 1, signal, 10_000, 1)).toBe('queue_full');
    expect(slots.queued('c')).toBe(1);
    slots.release('c');
    expect(await job2).toBe('acquired');
    slots.release('c');
    expect(slots.inFlight('c')).toBe(0);
  });

  it('QUEUE-9: with maxDepth 0 four waiting jobs all get their slot, in order', async () => {
    const slots = createConnectionSlots();
    const signal = new AbortController().signal;
    slots.tryAcquire('c', 1);
    const order: number[] = [];
    const jobs = [1, 2, 3, 4].map((n) => slots.acquire('c', 1, signal, 10_000, 0).then((o) => order.push(n) && o));
    for (let i = 0; i < 4; i++) {
      slots.release('c');
      await jobs[i];
    }
    expect(await Promise.all(jobs)).toEqual(['acquired', 'acquired', 'acquired', 'acquired']);
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it('QUEUE-1: stats show per connection the waiting, the in-flight and the wait p50/p95 from the injected clock', async () => {
    let now = 1_000;
    const slots = createConnectionSlots({ now: () => now });
    const signal = new AbortController().signal;
    slots.tryAcquire('a', 1); // waited 0 ms
    const waiting = slots.acquire('a', 1, signal, 10_000);
    expect(slots.stats(now)).toEqual([
      { connectionId: 'a', queued: 1, inFlight: 1, waitP50Ms: 0, waitP95Ms: 0, samples: 1 },
    ]);
    now += 400;
    slots.release('a');
    expect(await waiting).toBe('acquired');
    const [row] = slots.stats(now);
    expect(row).toMatchObject({ queued: 0, inFlight: 1, waitP50Ms: 0, waitP95Ms: 400, samples: 2 });
    // Independent connections have independent queues.
    expect(slots.tryAcquire('b', 1)).toBe(true);
    expect(slots.inFlight('a')).toBe(1);
  });
});
