import type { ConnectionHealth } from './connection-health';
import type { CooldownSettings } from './cooldown-settings';

/** The third consecutive `request_rejected` refusal bans the connection (COOL-8). */
export const REQUEST_REJECTED_BAN_THRESHOLD = 3;
/** Expired-credential signals are retried this many times before `expired` is final (COOL-9). */
export const EXPIRED_RETRY_MAX = 3;

/** One step of a counted streak: still inside the last episode, a cooldown rung, or the terminal end. */
export type StreakStep =
  | { kind: 'absorbed'; retryAfterMs: number }
  | { kind: 'cooldown'; count: number; cooldownMs: number }
  | { kind: 'terminal'; count: number };

function rejectedRung(streak: number, settings: CooldownSettings): number {
  return streak <= 1 ? settings.requestRejectedCooldownMs : settings.requestRejectedRepeatCooldownMs;
}

/**
 * Counts a refusal. Refusals inside the episode of the last counted one were already in flight and
 * do not count; the episode is computed from the counters, not from `rateLimitedUntil`, so the
 * guard also holds on a `disableCooling` connection.
 */
export function requestRejectedStep(state: ConnectionHealth, settings: CooldownSettings, now: number): StreakStep {
  const last = state.lastRejectedAt;
  if (last !== null && state.rejectedStreak > 0) {
    const episodeEnd = last + rejectedRung(state.rejectedStreak, settings);
    if (now < episodeEnd) return { kind: 'absorbed', retryAfterMs: episodeEnd - now };
  }
  const continues = last !== null && now - last < settings.requestRejectedWindowMs;
  const count = continues ? state.rejectedStreak + 1 : 1;
  if (count >= REQUEST_REJECTED_BAN_THRESHOLD) return { kind: 'terminal', count };
  return { kind: 'cooldown', count, cooldownMs: rejectedRung(count, settings) };
}

/** Wait before expired-credential retry `n` (1-based): `base * 2 ** (n - 1)`. */
export function expiredRetryDelayMs(n: number, settings: CooldownSettings): number {
  return settings.expiredRetryBaseMs * 2 ** (n - 1);
}

/**
 * Grants the next retry of an expired-looking credential, or declares it expired once
 * EXPIRED_RETRY_MAX retries have been granted and the signal still comes back.
 */
export function expiredStep(state: ConnectionHealth, settings: CooldownSettings, now: number): StreakStep {
  const last = state.lastExpiredAt;
  if (last !== null && state.expiredRetries > 0) {
    const retryAt = last + expiredRetryDelayMs(state.expiredRetries, settings);
    if (now < retryAt) return { kind: 'absorbed', retryAfterMs: retryAt - now };
  }
  if (state.expiredRetries >= EXPIRED_RETRY_MAX) return { kind: 'terminal', count: state.expiredRetries };
  const count = state.expiredRetries + 1;
  return { kind: 'cooldown', count, cooldownMs: expiredRetryDelayMs(count, settings) };
}
