import type { ConnectionHealth } from '../../cooldown/connection-health';
import { isTerminalStatus } from '../../cooldown/connection-health';

/**
 * EGRESS-1/9: upstream services that bucket limits by IP, not by account (the opencode free tier,
 * #9611). Widening it is an owner decision: one line here, or the explicit env replacement list.
 * Service ids are those of classify/known-providers (the host names the service).
 */
export const EGRESS_BUCKETED_LOCK_PROVIDERS: readonly string[] = ['opencode'];

/** Reference §6.4: cooldown for the failing connection when no rule or hint gave one. */
export const EGRESS_FALLBACK_COOLDOWN_MS = 120_000;

/** EGRESS-4: how far back "last known egress IP" reaches in the request log. */
export const EGRESS_LOOKUP_WINDOW_MS = 24 * 3_600_000;

/** EGRESS-10: the sibling scan reads at most this many distinct connections. */
export const EGRESS_SIBLING_SCAN_LIMIT = 200;

/** Reference §6.4 env: unset → default; none/off/false/0 → disabled; else a comma list (lower-cased). */
export function parseEgressAllowlist(value: string | undefined): readonly string[] {
  if (value === undefined || value.trim() === '') return EGRESS_BUCKETED_LOCK_PROVIDERS;
  const text = value.trim().toLowerCase();
  if (['none', 'off', 'false', '0'].includes(text)) return [];
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export interface EgressTrigger {
  status: number | null;
  reason: string;
  /** A terminal classification (banned, credits) is never an IP-level signal. */
  terminal: string | null;
  service: string;
  disableCooling: boolean;
}

/** EGRESS-2/3/4: a 429 of an allowlisted service, quota or rate limit, on a connection that may cool. */
export function egressLockApplies(trigger: EgressTrigger, allowlist: readonly string[]): boolean {
  return (
    trigger.status === 429 &&
    (trigger.reason === 'quota_exhausted' || trigger.reason === 'rate_limit_exceeded') &&
    trigger.terminal === null &&
    !trigger.disableCooling &&
    allowlist.includes(trigger.service)
  );
}

export interface SiblingCooldown {
  until: number;
  reason: string;
  service: string;
}

/**
 * EGRESS-5/8: the sibling's next health, or null to leave it alone: terminal siblings and longer
 * cooldowns are never overwritten, and the result is always a renewable `unavailable` window.
 */
export function coolSibling(health: ConnectionHealth, cooldown: SiblingCooldown, now: number): ConnectionHealth | null {
  if (isTerminalStatus(health.testStatus)) return null;
  if (health.rateLimitedUntil !== null && health.rateLimitedUntil >= cooldown.until) return null;
  if (cooldown.until <= now) return null;
  return {
    ...health,
    testStatus: 'unavailable',
    rateLimitedUntil: cooldown.until,
    lastError: `Shared egress IP quota exhausted (${cooldown.service})`,
    lastErrorType: cooldown.reason,
    errorCode: '429',
    lastFailureAt: now,
  };
}
