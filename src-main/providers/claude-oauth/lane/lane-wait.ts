import { LANE } from './lane-constants';
import { endLane, type LaneDecision, type LaneEntry, type LaneWait } from './lane-state';

export interface LaneOutcome {
  entry: LaneEntry;
  decision: LaneDecision;
}

/** The wait episode to extend: the current one only if it began under this acceptance of the lane. */
function currentEpisode(entry: LaneEntry, acceptedAtMs: number, now: number): LaneWait {
  const wait = entry.wait;
  if (wait && wait.sinceMs >= acceptedAtMs) return wait;
  return { sinceMs: now, attempts: 0, nextTryAtMs: now };
}

/**
 * One more wait after `slot_busy` or 529 (LOWP-7): the retry-after hint with ±30 % jitter, cut
 * to what is left of max-wait and of the request's own deadline. With nothing left the lane ends
 * `max_wait` (and cools off) rather than letting the request time out mid-wait (LOWP-8, LOWP-9).
 * `waitDeadlineMs` is absolute: see `laneWaitDeadline`.
 */
export function decideWait(
  entry: LaneEntry,
  via: 'slot-busy' | 'capacity-busy',
  now: number,
  random: () => number,
  waitDeadlineMs?: number,
): LaneOutcome {
  if (entry.phase.kind !== 'active') return { entry, decision: { kind: 'none' } };
  const episode = currentEpisode(entry, entry.phase.acceptedAtMs, now);
  const limitAt = Math.min(episode.sinceMs + entry.maxWaitMs, waitDeadlineMs ?? Number.POSITIVE_INFINITY);
  const left = limitAt - now;
  if (left <= 0) return { entry: endLane(entry, 'max_wait', now), decision: { kind: 'ended', reason: 'max_wait' } };
  const factor = 1 + (random() * 2 - 1) * LANE.jitter;
  const delayMs = Math.min(Math.max(0, Math.round(entry.retryAfterMs * factor)), left);
  return {
    entry: { ...entry, wait: { sinceMs: episode.sinceMs, attempts: episode.attempts + 1, nextTryAtMs: now + delayMs } },
    decision: { kind: 'retry', delayMs, via },
  };
}
