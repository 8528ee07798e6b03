import type { FailoverHop, RequestAttempt, SessionPinMark } from '../../../src-shared/domain/request-log';

/** What waiting out short cooldowns did for one request, for its headers and its activity row. */
export interface HeldMark {
  waits: number;
  heldMs: number;
  /** A streaming client got 200 + keep-alives for the wait: what follows can only be SSE. */
  streamOpened: boolean;
}

/**
 * One request's story as it unfolds, kept by the request loop alone (stages return values; the
 * loop writes them here): the failover list the client is told (`x-leeway-failover`, error
 * details), every attempt for the activity row, the holds, and what the answer's headers add.
 */
export interface RequestTrail {
  /** Candidates tried before the one that answered, as the client is told. */
  readonly hops: FailoverHop[];
  /** Every attempt in order, across the passes of a hold (issue 13 §3). */
  readonly attempts: RequestAttempt[];
  held: HeldMark | null;
  /** What the session's pin did (set when an answer is served). */
  sessionPin: SessionPinMark | null;
  /** `client->upstream` of the last attempt when translated (issue 12); null: same format. */
  translated: string | null;
  /** Set by an attempt whose provider hook re-sent the request. */
  servedVia: string | null;
  /** Time spent in connections' request queues waiting for a slot (QUEUE-1), summed over attempts. */
  queuedMs: number;
}

export function createTrail(): RequestTrail {
  return { hops: [], attempts: [], held: null, sessionPin: null, translated: null, servedVia: null, queuedMs: 0 };
}
