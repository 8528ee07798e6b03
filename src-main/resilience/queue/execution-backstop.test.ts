import { afterEach, describe, expect, it, vi } from 'vitest';
import { withExecutionBackstop } from './execution-backstop';

afterEach(() => vi.useRealTimers());

/** An attempt that ends when its signal aborts, as the upstream send does. */
const attempt = (signal: AbortSignal) =>
  new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('aborted'), { once: true }));

describe('execution backstop', () => {
  it('QUEUE-4, QUEUE-5: past the budget from dispatch the attempt is aborted and reported as expired', async () => {
    vi.useFakeTimers();
    const client = new AbortController();
    let given: AbortSignal | null = null;
    const run = withExecutionBackstop(client.signal, 1_000, (signal) => {
      given = signal;
      return attempt(signal);
    });
    vi.advanceTimersByTime(999);
    expect((given as AbortSignal | null)?.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await run).toEqual({ expired: true, value: 'aborted' });
    // The request's own signal is untouched: the client did not leave.
    expect(client.signal.aborted).toBe(false);
  });

  it('QUEUE-4: a client that leaves still aborts the attempt, and that is not an expiry', async () => {
    vi.useFakeTimers();
    const client = new AbortController();
    const run = withExecutionBackstop(client.signal, 60_000, attempt);
    client.abort();
    expect(await run).toEqual({ expired: false, value: 'aborted' });
  });

  it('QUEUE-4: an attempt that answers in time is untouched and its signal keeps following the client', async () => {
    const client = new AbortController();
    let seen: AbortSignal | null = null;
    const run = await withExecutionBackstop(client.signal, 60_000, (signal) => {
      seen = signal;
      return Promise.resolve('served');
    });
    expect(run).toEqual({ expired: false, value: 'served' });
    client.abort();
    // The upstream answer being relayed is bound to the attempt's signal: it must follow the client.
    expect((seen as AbortSignal | null)?.aborted).toBe(true);
  });
});
