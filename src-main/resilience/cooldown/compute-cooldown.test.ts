import { describe, expect, it } from 'vitest';
import type { ProviderProfile } from '../../kernel/provider-identity';
import type { ConnectionFailure } from './connection-failure';
import { HEALTHY, type ConnectionHealth } from './connection-health';
import { cooldownSettingsSchema, DEFAULT_COOLDOWN_SETTINGS, type CooldownSettings } from './cooldown-settings';
import { recordConnectionFailure } from './record-connection-failure';

const T0 = 1_700_000_000_000;

function failure(over: Partial<ConnectionFailure> = {}): ConnectionFailure {
  return {
    reason: 'rate_limit_exceeded',
    retryHintMs: null,
    terminal: null,
    requestRejected: false,
    message: 'Too many requests',
    status: 429,
    ...over,
  };
}

/** Fails the connection again the moment each cooldown ends, as steady traffic would; returns the cooldowns. */
function ladder(profile: ProviderProfile, count: number, settings: CooldownSettings = DEFAULT_COOLDOWN_SETTINGS) {
  let state: ConnectionHealth = HEALTHY;
  let now = T0;
  const cooldowns: number[] = [];
  const levels: number[] = [];
  for (let i = 0; i < count; i++) {
    const out = recordConnectionFailure(state, failure(), { settings, profile, disableCooling: false }, now);
    if (out.decision.kind !== 'cooldown') throw new Error(`expected a cooldown, got ${out.decision.kind}`);
    cooldowns.push(out.decision.cooldownMs);
    levels.push(out.state.backoffLevel);
    state = out.state;
    now = out.decision.until;
  }
  return { cooldowns, levels, state };
}

describe('connection cooldown length', () => {
  it('COOL-3, COOL-5: OAuth connections cool 5 s × 2^level', () => {
    const { cooldowns, levels, state } = ladder('oauth', 4);
    expect(state.lastErrorType).toBe('rate_limit_exceeded');
    expect(cooldowns).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(levels).toEqual([1, 2, 3, 4]);
  });

  it('COOL-3, COOL-5: API-key connections cool 3 s × 2^level, local ones reuse the API-key profile', () => {
    expect(ladder('apikey', 4).cooldowns).toEqual([3_000, 6_000, 12_000, 24_000]);
    expect(ladder('local', 2).cooldowns).toEqual([3_000, 6_000]);
  });

  it('COOL-5: the level stops at maxBackoffSteps (OAuth 8, API key 5) and the cooldown with it', () => {
    const oauth = ladder('oauth', 12);
    expect(oauth.levels.at(-1)).toBe(8);
    expect(oauth.cooldowns.slice(-3)).toEqual([1_280_000, 1_280_000, 1_280_000]);
    const apikey = ladder('apikey', 9);
    expect(apikey.levels.at(-1)).toBe(5);
    expect(apikey.cooldowns.slice(-3)).toEqual([96_000, 96_000, 96_000]);
  });

  it('COOL-5: maxCooldownMs caps the computed cooldown', () => {
    const settings = cooldownSettingsSchema.parse({ apikey: { maxCooldownMs: 10_000 } });
    expect(ladder('apikey', 5, settings).cooldowns).toEqual([3_000, 6_000, 10_000, 10_000, 10_000]);
  });

  it('COOL-4: an upstream hint on an API-key 429 wins over the backoff and resets the level', () => {
    const warm = ladder('apikey', 3).state;
    const now = warm.rateLimitedUntil ?? 0;
    const out = recordConnectionFailure(
      warm,
      failure({ retryHintMs: 42_000 }),
      { settings: DEFAULT_COOLDOWN_SETTINGS, profile: 'apikey', disableCooling: false },
      now,
    );
    expect(out.decision).toMatchObject({
      kind: 'cooldown',
      source: 'upstream_hint',
      cooldownMs: 42_000,
      until: now + 42_000,
    });
    expect(out.decision.reason).toBe('rate_limit_exceeded (HTTP 429): upstream reset hint; cooling for 42 s');
    expect(out.state.backoffLevel).toBe(0);
  });

  it('COOL-4: OAuth ignores the hint by default and uses it when its profile says so', () => {
    const hinted = failure({ retryHintMs: 42_000 });
    const byDefault = recordConnectionFailure(
      HEALTHY,
      hinted,
      { settings: DEFAULT_COOLDOWN_SETTINGS, profile: 'oauth', disableCooling: false },
      T0,
    );
    expect(byDefault.decision).toMatchObject({ kind: 'cooldown', source: 'backoff', cooldownMs: 5_000 });
    const trusting = cooldownSettingsSchema.parse({ oauth: { useUpstreamRetryHints: true } });
    const withHints = recordConnectionFailure(
      HEALTHY,
      hinted,
      { settings: trusting, profile: 'oauth', disableCooling: false },
      T0,
    );
    expect(withHints.decision).toMatchObject({ kind: 'cooldown', source: 'upstream_hint', cooldownMs: 42_000 });
  });

  it('COOL-5: a configured rule cooldown wins over hint and backoff and leaves the level alone', () => {
    const warm = ladder('apikey', 2).state;
    const now = warm.rateLimitedUntil ?? 0;
    const ruled = failure({ configuredCooldownMs: 3_600_000, retryHintMs: 42_000 });
    const out = recordConnectionFailure(
      warm,
      ruled,
      { settings: DEFAULT_COOLDOWN_SETTINGS, profile: 'apikey', disableCooling: false },
      now,
    );
    expect(out.decision).toMatchObject({ kind: 'cooldown', source: 'configured', cooldownMs: 3_600_000 });
    expect(out.state.backoffLevel).toBe(2);
  });

  it('COOL-5: a failure more than backoffResetMs (120 s) after the last cooldown ended starts again at level 0', () => {
    const warm = ladder('apikey', 3).state;
    const end = warm.rateLimitedUntil ?? 0;
    const ctx = { settings: DEFAULT_COOLDOWN_SETTINGS, profile: 'apikey' as const, disableCooling: false };
    expect(recordConnectionFailure(warm, failure(), ctx, end + 120_000).decision).toMatchObject({ cooldownMs: 24_000 });
    expect(recordConnectionFailure(warm, failure(), ctx, end + 120_001).decision).toMatchObject({
      cooldownMs: 3_000,
      backoffLevel: 1,
    });
  });
});
