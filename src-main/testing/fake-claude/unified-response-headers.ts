/**
 * The `anthropic-ratelimit-unified-*` headers a Claude subscription answer carries, in the shapes
 * Claude Code 2.1.263 reads: usage windows on every answer, the wall on a limit 429, the slow lane.
 */
import type { FakeUsage, SlowStep, WallScript } from './fake-claude-types';

const P = 'anthropic-ratelimit-unified-';

const fraction = (value: number): string => String(Math.round(value * 10_000) / 10_000);

/** The windows and overall status of a served answer (`allowed` unless the wall is up). */
export function usageHeaders(usage: FakeUsage, wall: WallScript | null): Record<string, string> {
  const fiveReset = wall ? wall.resetAt : usage.fiveHour.resetAt;
  const fiveUtil = wall ? 1 : usage.fiveHour.utilization;
  return {
    [`${P}status`]: wall ? 'rejected' : 'allowed',
    [`${P}reset`]: String(fiveReset),
    [`${P}representative-claim`]: wall?.claim ?? 'five_hour',
    [`${P}fallback-percentage`]: '0.5',
    [`${P}5h-status`]: wall ? 'rejected' : 'allowed',
    [`${P}5h-utilization`]: fraction(fiveUtil),
    [`${P}5h-reset`]: String(fiveReset),
    [`${P}7d-status`]: 'allowed',
    [`${P}7d-utilization`]: fraction(usage.sevenDay.utilization),
    [`${P}7d-reset`]: String(usage.sevenDay.resetAt),
    [`${P}overage-status`]: 'rejected',
    [`${P}overage-disabled-reason`]: 'org_level_disabled',
  };
}

/** The limit 429's headers (LOWP-2): status rejected, reset, blamed window and the slow-lane offer. */
export function wallHeaders(usage: FakeUsage, wall: WallScript, nowMs: number): Record<string, string> {
  const offer = wall.offer === undefined ? 'treatment' : wall.offer;
  return {
    ...usageHeaders(usage, wall),
    'retry-after': String(Math.max(1, wall.resetAt - Math.floor(nowMs / 1000))),
    ...(offer === null ? {} : { [`${P}slow-offer`]: offer }),
    ...wall.headers,
  };
}

/** A slow request served in the lane: the wall's windows plus `slow-status`. */
export function slowServedHeaders(
  usage: FakeUsage,
  wall: WallScript | null,
  slowStatus: string,
): Record<string, string> {
  return { ...usageHeaders(usage, wall), [`${P}slow-status`]: slowStatus, [`${P}slow-budget-utilization`]: '0.1' };
}

/** A slot_busy 429 or a 529 for a slow request (LOWP-7). */
export function slowBusyHeaders(
  usage: FakeUsage,
  wall: WallScript | null,
  step: Exclude<SlowStep, { kind: 'slow-status' }>,
): Record<string, string> {
  const headers: Record<string, string> = { ...usageHeaders(usage, wall) };
  if (step.kind === 'slot_busy') headers[`${P}slow-status`] = 'slot_busy';
  if (step.retryAfter !== undefined) headers[`${P}slow-retry-after`] = String(step.retryAfter);
  if (step.kind === 'slot_busy' && step.maxWait !== undefined) headers[`${P}slow-max-wait`] = String(step.maxWait);
  return headers;
}
