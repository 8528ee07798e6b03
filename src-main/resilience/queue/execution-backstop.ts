import { RequestSignal } from '../../kernel/request-signal';

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
  // Not an AbortController: Node's signals outlive young GCs (see proxy/request-signal.ts).
  const own = new RequestSignal();
  const follow = () => own.abort(outer.reason);
  if (outer.aborted) own.abort(outer.reason);
  else outer.addEventListener('abort', follow, { once: true });
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    own.abort();
  }, executionMs);
  holder.signal = own;
  try {
    const value = await run();
    return { expired, value };
  } finally {
    clearTimeout(timer);
    holder.signal = outer;
  }
}
