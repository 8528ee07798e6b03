import type { HeaderRecord } from './header-source';
import type { LaneOptIns } from './lane-config';
import { handleUsageLimitResponse, type LaneDeps, type LaneResult } from './lane-handler';
import { parseUnifiedHeaders } from './unified-headers';
import { EMPTY_LANE_STORE, type LaneStore } from './lane-store';

/** Fixed instants of the `claude-low-priority-mode` suite (REFERENCE-NOTES §7.6). */
export const NOW = 1.8e12;
export const RESET_S = NOW / 1000 + 3_600;
export const KEY = 'conn-a';

const U = 'anthropic-ratelimit-unified-';

/** Builds a header record from unified suffixes: `unified({ 'slow-status': 'active' })`. */
export function unified(suffixes: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(suffixes).map(([suffix, value]) => [U + suffix, value]));
}

/** The wall 429 of §7.6: rejected, reset in an hour, five-hour blame, offer, 20 s / 20 min hints. */
export function wallHeaders(overrides: Readonly<Record<string, string>> = {}): Record<string, string> {
  return unified({
    status: 'rejected',
    reset: String(RESET_S),
    'representative-claim': 'five_hour',
    'slow-offer': 'treatment',
    'slow-retry-after': '20',
    'slow-max-wait': '1200',
    ...overrides,
  });
}

export const LOW_ONLY: LaneOptIns = { lowPriorityMode: true, autoLimitReset: false };
export const OPTED_OUT: LaneOptIns = { lowPriorityMode: false, autoLimitReset: false };

/** Jitter factor exactly 1.0. */
export const half = (): number => 0.5;

export interface ResponseInit {
  status: number;
  headers?: HeaderRecord;
  sentSlow?: boolean;
  key?: string;
  waitDeadlineMs?: number;
}

/** One response through the top-level handler; slow by default, since most cases run on an active lane. */
export function respond(
  state: LaneStore,
  init: ResponseInit,
  now: number,
  random: () => number = half,
  deps: LaneDeps = { optIns: LOW_ONLY },
): LaneResult {
  const input = {
    key: init.key ?? KEY,
    status: init.status,
    unified: parseUnifiedHeaders(init.headers ?? {}),
    sentSlow: init.sentSlow ?? true,
    ...(init.waitDeadlineMs !== undefined ? { waitDeadlineMs: init.waitDeadlineMs } : {}),
  };
  return handleUsageLimitResponse(state, input, deps, now, random);
}

/** A store whose lane on `key` was accepted at `now` from the standard wall 429. */
export function activeStore(now = NOW, key = KEY, state: LaneStore = EMPTY_LANE_STORE): LaneStore {
  return respond(state, { status: 429, headers: wallHeaders(), sentSlow: false, key }, now).state;
}
