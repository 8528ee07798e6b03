import { RequestSignal } from '../../kernel/request-signal';

/**
 * QUEUE-4: runs one attempt under the execution backstop, a timer that starts at dispatch. The
 * attempt gets a signal that aborts on the request's own abort or on expiry; `expired` tells the
 * caller which (QUEUE-5). The upstream keeps following the request's abort while its answer is
 * relayed (the attempt's signal follows the request's for as long as anyone holds it).
 */
export async function withExecutionBackstop<T>(
  outer: AbortSignal,
  executionMs: number,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<{ expired: boolean; value: T }> {
  // Not an AbortController: Node's signals outlive young GCs (see kernel/request-signal.ts).
  const own = new RequestSignal();
  const follow = () => own.abort(outer.reason);
  if (outer.aborted) own.abort(outer.reason);
  else outer.addEventListener('abort', follow, { once: true });
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    own.abort();
  }, executionMs);
  try {
    const value = await run(own);
    return { expired, value };
  } finally {
    clearTimeout(timer);
  }
}
