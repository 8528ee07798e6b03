/** Something whose `signal` the attempt reads (the request frame): swapped for the attempt's duration. */
export interface SignalHolder {
  signal: AbortSignal;
}

/**
 * QUEUE-4: runs one attempt under the execution backstop, a timer that starts at dispatch. The
 * attempt sees a signal that aborts on the client's own abort or on expiry; `expired` tells the
 * caller which (QUEUE-5). The holder's signal is restored afterwards, and the upstream keeps
 * following the client's abort while its answer is relayed.
 */
export async function withExecutionBackstop<T>(
  holder: SignalHolder,
  executionMs: number,
  run: () => Promise<T>,
): Promise<{ expired: boolean; value: T }> {
  const outer = holder.signal;
  const own = new AbortController();
  if (outer.aborted) own.abort(outer.reason);
  else outer.addEventListener('abort', () => own.abort(outer.reason), { once: true });
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    own.abort();
  }, executionMs);
  holder.signal = own.signal;
  try {
    const value = await run();
    return { expired, value };
  } finally {
    clearTimeout(timer);
    holder.signal = outer;
  }
}
