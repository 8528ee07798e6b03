import type { ConnectionFailure } from './connection-failure';
import type { ConnectionHealth } from './connection-health';
import type { CooldownProfileSettings } from './cooldown-settings';

export interface TransientCooldown {
  cooldownMs: number;
  /** Level to store after this failure. */
  backoffLevel: number;
  source: 'backoff' | 'upstream_hint' | 'configured';
}

/**
 * A length someone outside the ladder decided: a configured rule, or an upstream hint when the
 * profile trusts hints (COOL-4). Null means "use the computed backoff".
 */
export function authoritativeCooldown(
  failure: ConnectionFailure,
  profile: CooldownProfileSettings,
): { cooldownMs: number; source: 'upstream_hint' | 'configured' } | null {
  if (failure.configuredCooldownMs !== undefined && failure.configuredCooldownMs > 0) {
    return { cooldownMs: failure.configuredCooldownMs, source: 'configured' };
  }
  if (profile.useUpstreamRetryHints && failure.retryHintMs !== null && failure.retryHintMs > 0) {
    return { cooldownMs: failure.retryHintMs, source: 'upstream_hint' };
  }
  return null;
}

/**
 * The level this failure starts from. The stored level only carries on while failures keep coming
 * soon after the previous cooldown; otherwise a stale high level would punish a key that failed
 * once, long ago (the reference decays it on selection, which a pure read cannot do).
 */
export function continuedBackoffLevel(state: ConnectionHealth, profile: CooldownProfileSettings, now: number): number {
  const lastEnd = state.rateLimitedUntil ?? state.lastFailureAt;
  if (lastEnd === null || now - lastEnd > profile.backoffResetMs) return 0;
  return state.backoffLevel;
}

/**
 * Cooldown for a transient failure at `level`: configured > upstream hint > `base * 2 ** level`
 * capped by `maxCooldownMs` (COOL-5). A hint resets the ladder because the upstream told us the
 * real reset; a configured length leaves the level alone.
 */
export function computeTransientCooldown(
  level: number,
  failure: ConnectionFailure,
  profile: CooldownProfileSettings,
): TransientCooldown {
  const given = authoritativeCooldown(failure, profile);
  if (given?.source === 'configured') return { ...given, backoffLevel: level };
  if (given) return { ...given, backoffLevel: 0 };
  const exponent = Math.min(level, profile.maxBackoffSteps);
  return {
    cooldownMs: Math.min(profile.baseCooldownMs * 2 ** exponent, profile.maxCooldownMs),
    backoffLevel: Math.min(level + 1, profile.maxBackoffSteps),
    source: 'backoff',
  };
}
