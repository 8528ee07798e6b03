import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnectionSlots } from './connection-slots';

afterEach(() => vi.useRealTimers());

describe('connection slots (maxConcurrent)', () => {
  it('CONC-2: at most max requests hold a slot; a release hands the slot to the oldest waiter', async () => {
    const slots = createConnectionSlots();
    const signal = new AbortController().signal;
    expect(slots.tryAcquire('c', 1)).toBe(true);
    expect(slots.tryAcquire('c', 1)).toBe(false);
    const first = slots.acquire('c', 1, signal, 10_000);
    const second = slots.acquire('c', 1, signal, 10_000);
    slots.release('c');
    expect(await first).toBe('acquired');
    expect(slots.inFlight('c')).toBe(1);
    slots.release('c');
    expect(await second).toBe('acquired');
    slots.release('c');
    expect(slots.inFlight('c')).toBe(0);
  });

  it('CONC-4: a waiter whose budget runs out proceeds without a slot (fail open), and an abort leaves the queue', async () => {
    vi.useFakeTimers();
    const slots = createConnectionSlots();
    const controller = new AbortController();
    slots.tryAcquire('c', 1);
    const timedOut = slots.acquire('c', 1, new AbortController().signal, 500);
    const aborted = slots.acquire('c', 1, controller.signal, 10_000);
    vi.advanceTimersByTime(500);
    expect(await timedOut).toBe('fail_open');
    controller.abort();
    expect(await aborted).toBe('aborted');
    slots.release('c');
    expect(slots.inFlight('c')).toBe(0);
  });
});
