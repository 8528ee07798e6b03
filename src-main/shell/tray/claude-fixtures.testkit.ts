import type { ClaudeConnectionStatus, ClaudeLaneView } from '../../../src-shared/domain/claude';
import { T0 } from '../shell-fixtures.testkit';

/** A Claude status whose 5-hour window is at `fiveHour` (fraction) resetting `resetsInMs` after T0, the week at `week`. */
export function claudeStatus(
  connectionId: string,
  usage: { fiveHour: number; resetsInMs: number; week: number } | null,
  lane: ClaudeLaneView = { kind: 'idle' },
): ClaudeConnectionStatus {
  return {
    connectionId,
    usage: usage && {
      fiveHour: { utilization: usage.fiveHour, resetsAtSeconds: (T0 + usage.resetsInMs) / 1000 },
      sevenDay: { utilization: usage.week, resetsAtSeconds: (T0 + 5 * 86_400_000) / 1000 },
      windows: {},
      observedAt: T0,
    },
    lane,
    lastReset: null,
    lastVia: null,
  };
}

/** An active lane that lasts until `resetsAtMs`. */
export function activeLane(resetsAtMs: number): Extract<ClaudeLaneView, { kind: 'active' }> {
  return {
    kind: 'active',
    acceptedAtMs: T0,
    resetsAtMs,
    expiresAtMs: resetsAtMs + 60_000,
    retryAfterMs: 20_000,
    maxWaitMs: 1_200_000,
    requestsServed: 0,
    requestsServedStandard: 0,
  };
}
