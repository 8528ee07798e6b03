import { describe, expect, it } from 'vitest';
import { HEALTHY, type ConnectionHealth } from '../../cooldown/connection-health';
import {
  coolSibling,
  EGRESS_BUCKETED_LOCK_PROVIDERS,
  egressLockApplies,
  parseEgressAllowlist,
  type EgressTrigger,
} from './egress-lock';

const base: EgressTrigger = {
  status: 429,
  reason: 'rate_limit_exceeded',
  terminal: null,
  service: 'opencode',
  disableCooling: false,
};
const allow = EGRESS_BUCKETED_LOCK_PROVIDERS;

describe('egress lock decision', () => {
  it('EGRESS-1/EGRESS-3: both a quota_exhausted and a rate_limit_exceeded 429 of opencode trigger the lock', () => {
    expect(egressLockApplies(base, allow)).toBe(true);
    expect(egressLockApplies({ ...base, reason: 'quota_exhausted' }, allow)).toBe(true);
  });

  it('EGRESS-2: other statuses, reasons, services and terminal classifications do not', () => {
    expect(egressLockApplies({ ...base, status: 503 }, allow)).toBe(false);
    expect(egressLockApplies({ ...base, status: null }, allow)).toBe(false);
    expect(egressLockApplies({ ...base, reason: 'server_error' }, allow)).toBe(false);
    expect(egressLockApplies({ ...base, service: 'openrouter' }, allow)).toBe(false);
    expect(egressLockApplies({ ...base, terminal: 'credits_exhausted' }, allow)).toBe(false);
  });

  it('EGRESS-4: a connection with disableCooling skips the branch entirely', () => {
    expect(egressLockApplies({ ...base, disableCooling: true }, allow)).toBe(false);
  });

  it('EGRESS-9: the allowlist is the constant unless the env replaces or disables it', () => {
    expect(parseEgressAllowlist(undefined)).toEqual(['opencode']);
    expect(parseEgressAllowlist('off')).toEqual([]);
    expect(parseEgressAllowlist('0')).toEqual([]);
    expect(parseEgressAllowlist(' OpenCode , groq ')).toEqual(['opencode', 'groq']);
    expect(egressLockApplies(base, parseEgressAllowlist('none'))).toBe(false);
  });
});

describe('sibling cooldown', () => {
  const now = 1_000_000;
  const cooldown = { until: now + 60_000, reason: 'rate_limit_exceeded', service: 'opencode' };

  it('EGRESS-5: a healthy sibling gets a renewable unavailable window with the shared-IP message', () => {
    const next = coolSibling(HEALTHY, cooldown, now);
    expect(next).toMatchObject({
      testStatus: 'unavailable',
      rateLimitedUntil: now + 60_000,
      lastError: 'Shared egress IP quota exhausted (opencode)',
      lastErrorType: 'rate_limit_exceeded',
      errorCode: '429',
    });
  });

  it('EGRESS-8: terminal siblings and longer cooldowns are never overwritten; shorter ones are extended', () => {
    const banned: ConnectionHealth = { ...HEALTHY, testStatus: 'banned' };
    const credits: ConnectionHealth = { ...HEALTHY, testStatus: 'credits_exhausted' };
    const longer: ConnectionHealth = { ...HEALTHY, testStatus: 'unavailable', rateLimitedUntil: now + 3_600_000 };
    const shorter: ConnectionHealth = { ...HEALTHY, testStatus: 'unavailable', rateLimitedUntil: now + 1_000 };
    expect(coolSibling(banned, cooldown, now)).toBeNull();
    expect(coolSibling(credits, cooldown, now)).toBeNull();
    expect(coolSibling(longer, cooldown, now)).toBeNull();
    expect(coolSibling(shorter, cooldown, now)?.rateLimitedUntil).toBe(now + 60_000);
  });
});
