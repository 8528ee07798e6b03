import { answerError, type Ended } from './answer';
import type { RequestFrame } from './frame';
import type { RequestTrail } from './trail';
import { endErrorOf } from './in-flight';

/**
 * A request whose stages stopped on an aborted signal: when the abort was the shutdown's (issue 21
 * §9) or an operator's cancel (issue 24 §2), the client is still there and gets a 503 in its format, or an error event on a stream
 * already open; when the client left, nobody is there to tell (null: logged as client_closed).
 */
export function endedByShutdown(frame: RequestFrame, trail: RequestTrail): Ended | null {
  const told = endErrorOf(frame.signal.reason);
  return told ? answerError(frame, trail, told) : null;
}

/**
 * The activity row of a request the shutdown ended says 503, even when a stream had sent its 200
 * headers before the error event: a cut answer is not a success (as 499 marks one the client cut).
 */
export function loggedEnd(ended: Ended | null): Ended | null {
  if (ended === null) return null;
  if (ended.errorCode === 'shutdown') return { ...ended, status: 503 };
  return ended.errorCode === 'request_cancelled' ? { ...ended, status: 409 } : ended;
}
