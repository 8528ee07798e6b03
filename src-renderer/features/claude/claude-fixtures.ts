import type { ClaudeConnectionStatus, ClaudeLaneView, ClaudeUsage } from '../../../src-shared/domain/claude';

/** Test data for the Claude views: times as plain numbers from T0. */
export const T0 = 1_700_000_000_000;

/** An active lane's counters, so a test states only the fields it is about. */
export const ACTIVE_LANE = {
  acceptedAtMs: T0 - 60_000,
  resetsAtMs: T0 + 3_600_000,
  expiresAtMs: T0 + 3_660_000,
  retryAfterMs: 20_000,
  maxWaitMs: 1_200_000,
  requestsServed: 4,
  requestsServedStandard: 1,
};

/** Usage with the 5-hour window at `fiveHour` (fraction) resetting in `resetsInMs`, and the week at `week`. */
export function usage(
  fiveHour: number,
  resetsInMs: number,
  week: number,
  weekResetsInMs = 3 * 86_400_000,
): ClaudeUsage {
  return {
    status: 'allowed',
    fiveHour: { utilization: fiveHour, resetsAtSeconds: (T0 + resetsInMs) / 1000, status: 'allowed' },
    sevenDay: { utilization: week, resetsAtSeconds: (T0 + weekResetsInMs) / 1000, status: 'allowed' },
    windows: {},
    observedAt: T0,
  };
}

export function claudeStatus(
  connectionId: string,
  patch: Partial<ClaudeConnectionStatus> = {},
  lane: ClaudeLaneView = { kind: 'idle' },
): ClaudeConnectionStatus {
  return { connectionId, usage: null, lane, lastReset: null, lastVia: null, ...patch };
}
