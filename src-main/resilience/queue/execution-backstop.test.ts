import { afterEach, describe, expect, it, vi } from 'vitest';
import { withExecutionBackstop } from './execution-backstop';

afterEach(() => vi.useRealTimers());

/** An attempt that ends when its signal aborts, as the upstream send does. */
const attemptOf = (holder: { signal: AbortSignal }) => () =>
  new Promise<string>((resolve) => holder.signal.addEventListener('abort', () => resolve('aborted'), { once: true }));

describe('execution backstop', () => {
  it('QUEUE-4, QUEUE-5: past the budget from dispatch the attempt is aborted and reported as expired', async () => {
    vi.useFakeTimers();
    const client = new AbortController();
    const holder = { signal: client.signal };
    const run = withExecutionBackstop(holder, 1_000, attemptOf(holder));
    vi.advanceTimersByTime(999);
    expect(holder.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await run).toEqual({ expired: true, value: 'aborted' });
    // The frame gets its own signal back, untouched: the client did not leave.
    expect(holder.signal).toBe(client.signal);
    expect(client.signal.aborted).toBe(false);
  });

  it('QUEUE-4: a client that leaves still aborts the attempt, and that is not an expiry', async () => {
    vi.useFakeTimers();
    const client = new AbortController();
    const holder = { signal: client.signal };
    const run = withExecutionBackstop(holder, 60_000, attemptOf(holder));
    client.abort();
    expect(await run).toEqual({ expired: false, value: 'aborted' });
  });

  it('QUEUE-4: an attempt that answers in time is untouched and its signal keeps following the client', async () => {
    const client = new AbortController();
    const holder = { signal: client.signal };
    let seen: AbortSignal | null = null;
    const run = await withExecutionBackstop(holder, 60_000, () => {
      seen = holder.signal;
      return Promise.resolve('served');
    });
    expect(run).toEqual({ expired: false, value: 'served' });
    client.abort();
    // The upstream answer being relayed is bound to the attempt's signal: it must follow the client.
    expect((seen as AbortSignal | null)?.aborted).toBe(true);
  });
});
