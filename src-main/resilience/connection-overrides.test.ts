import { describe, expect, it } from 'vitest';
import { connectionInputSchema, type ConnectionView } from '../../src-shared/domain/connection';
import { cooldownSettingsFor } from './connection-overrides';
import { DEFAULT_COOLDOWN_SETTINGS } from './cooldown/cooldown-settings';

const view = (providerSpecificData: Record<string, unknown>): ConnectionView => ({
  id: 'c1',
  name: 'c1',
  kind: 'anthropic',
  baseUrl: null,
  effectiveBaseUrl: 'https://api.anthropic.com',
  models: [],
  modelAliases: {},
  priority: 1,
  enabled: true,
  maxConcurrent: null,
  disableCooling: false,
  providerSpecificData,
  secretHint: null,
  createdAt: 0,
  updatedAt: 0,
});

describe('per-connection resilience overrides', () => {
  it('COOL-3: a connection override wins over the stored settings for its own profile only', () => {
    const s = cooldownSettingsFor(
      view({ resilience: { cooldown: { baseCooldownMs: 10_000 } } }),
      'apikey',
      DEFAULT_COOLDOWN_SETTINGS,
    );
    expect(s.apikey.baseCooldownMs).toBe(10_000);
    expect(s.oauth.baseCooldownMs).toBe(DEFAULT_COOLDOWN_SETTINGS.oauth.baseCooldownMs);
  });

  it('COOL-3: an override is clamped like stored settings, and none leaves the settings as they are', () => {
    const clamped = cooldownSettingsFor(
      view({ resilience: { cooldown: { baseCooldownMs: 1 } } }),
      'apikey',
      DEFAULT_COOLDOWN_SETTINGS,
    );
    expect(clamped.apikey.baseCooldownMs).toBe(100);
    expect(cooldownSettingsFor(view({}), 'apikey', DEFAULT_COOLDOWN_SETTINGS)).toBe(DEFAULT_COOLDOWN_SETTINGS);
  });

  it('COOL-3: an override of the wrong type read back from a hand-edited row is ignored, not half applied', () => {
    const base = DEFAULT_COOLDOWN_SETTINGS;
    expect(
      cooldownSettingsFor(
        view({ resilience: { cooldown: { baseCooldownMs: 'slow', maxBackoffSteps: 2 } } }),
        'apikey',
        base,
      ),
    ).toBe(base);
    expect(cooldownSettingsFor(view({ resilience: 'fast' }), 'apikey', base)).toBe(base);
    expect(cooldownSettingsFor(view({ resilience: { cooldown: [1] } }), 'apikey', base)).toBe(base);
  });

  it('COOL-3 LOWP-1 RESET-1: the contract checks the known providerSpecificData keys by path and keeps the others', () => {
    const upsert = (providerSpecificData: unknown) =>
      connectionInputSchema.safeParse({ name: 'c1', kind: 'anthropic', providerSpecificData });
    const refused = upsert({
      lowPriorityMode: 'true',
      resilience: { cooldown: { baseCooldownMs: 'slow' }, breaker: {} },
    });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'providerSpecificData.lowPriorityMode',
      'providerSpecificData.resilience',
      'providerSpecificData.resilience.cooldown.baseCooldownMs',
    ]);
    const kept = upsert({
      autoLimitReset: true,
      organizationUUID: 'org-1',
      nested: { a: 1 },
      resilience: { cooldown: { baseCooldownMs: 10_000 } },
    });
    expect(kept.data?.providerSpecificData).toEqual({
      autoLimitReset: true,
      organizationUUID: 'org-1',
      nested: { a: 1 },
      resilience: { cooldown: { baseCooldownMs: 10_000 } },
    });
  });
});
