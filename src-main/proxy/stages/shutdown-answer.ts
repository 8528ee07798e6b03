import { answerError, type Ended } from './answer';
import type { RequestFrame } from './frame';
import type { RequestTrail } from './trail';
import { isShuttingDown, shutdownError } from './in-flight';

/**
 * A request whose stages stopped on an aborted signal: when the abort was the shutdown's (issue 21
 * §9), the client is still there and gets a 503 in its format, or an error event on a stream
 * already open; when the client left, nobody is there to tell (null: logged as client_closed).
 */
export function endedByShutdown(frame: RequestFrame, trail: RequestTrail): Ended | null {
  return isShuttingDown(frame.signal.reason) ? answerError(frame, trail, shutdownError()) : null;
}

/**
 * The activity row of a request the shutdown ended says 503, even when a stream had sent its 200
 * headers before the error event: a cut answer is not a success (as 499 marks one the client cut).
 */
export function loggedEnd(ended: Ended | null): Ended | null {
  return ended !== null && ended.errorCode === 'shutdown' ? { ...ended, status: 503 } : ended;
}
