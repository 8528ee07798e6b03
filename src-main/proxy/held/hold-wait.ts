import type { HeldAction } from '../../../src-shared/domain/held';
import { RequestSignal } from '../../kernel/request-signal';
import { CancelledByOperator } from '../stages/in-flight';
import type { HeldBoard, HoldInput } from './held-board';

/** How a held wait ended: on its own (or the request's abort), or cut short by the operator. */
export type HeldEnd<T> =
  { kind: 'waited'; value: T } | { kind: 'acted'; action: Exclude<HeldAction, 'cancel'>; value: T };

/**
 * Runs one wait on the board (issue 24 §2): listed while it runs, taken off in any case. The wait
 * gets a signal of its own that follows the request's and also aborts when the operator acts:
 * `cancel` ends the request itself (CancelledByOperator: the stages answer it like a shutdown, in
 * the client's format, at once); `go-now` and `release-lease` end only the wait, and the caller
 * reads which. Not an AbortController: see kernel/request-signal.ts.
 */
export async function waitHeld<T>(
  board: HeldBoard,
  /** The request's own signal, which an operator's cancel aborts. */
  request: RequestSignal,
  input: HoldInput,
  now: number,
  wait: (signal: AbortSignal) => Promise<T>,
): Promise<HeldEnd<T>> {
  const own = new RequestSignal();
  const follow = () => own.abort(request.reason);
  if (request.aborted) own.abort(request.reason);
  else request.addEventListener('abort', follow, { once: true });
  const hold = board.enter(input, now);
  void hold.acted.then((action) => {
    if (action === 'cancel') request.abort(new CancelledByOperator(input.what));
    else own.abort(action);
  });
  try {
    const value = await wait(own);
    const action = hold.action;
    return action === null || action === 'cancel' ? { kind: 'waited', value } : { kind: 'acted', action, value };
  } finally {
    hold.end();
    request.removeEventListener('abort', follow);
  }
}
