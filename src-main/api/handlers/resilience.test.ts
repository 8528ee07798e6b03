import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../../src-shared/contract/errors';
import { methods } from '../../../src-shared/contract/methods';
import { DEFAULT_RESILIENCE_SETTINGS } from '../../../src-shared/domain/resilience-settings';
import { startLeeway, type RunningLeeway } from '../../testing/start-leeway';

let h: RunningLeeway;
beforeAll(async () => {
  h = await startLeeway({});
});
afterAll(() => h.stop());

/** The refusal's `details.issues`, after checking it is an `invalid_input` from the contract. */
async function refusal(patch: unknown): Promise<{ path: string; message: string }[]> {
  const result = await h.core.router.call('resilience.updateSettings', patch);
  expect(result.ok).toBe(false);
  if (result.ok) return [];
  const error: AppError = result.error;
  expect(error.code).toBe('invalid_input');
  return (error.details as { issues: { path: string; message: string }[] }).issues;
}

describe('resilience settings through the contract', () => {
  it('LOCK-10 PROD-6: a malformed patch is refused by the contract schema with invalid_input naming each path', async () => {
    const malformed = {
      cooldown: { oauth: { baseCooldownMs: 'slow' } },
      windowGate: { profiles: { local: { providerCooldownMs: 10 } } },
      modelLockout: { errorCodes: 'all' },
      providerErrorRules: { agentrouter: [{ status: 99, match: 'quota', scope: 'connection' }] },
    };
    // The contract itself refuses it, before any handler runs, so both doors answer the same.
    expect(methods['resilience.updateSettings'].input.safeParse(malformed).success).toBe(false);
    const issues = await refusal(malformed);
    expect(issues.map((i) => i.path).sort()).toEqual([
      'cooldown.oauth.baseCooldownMs',
      'modelLockout.errorCodes',
      'providerErrorRules.agentrouter.0.status',
      'windowGate.profiles.local.providerCooldownMs',
    ]);
    expect((await refusal({ windowGate: { profiles: { local: { bogus: 1 } } } }))[0]).toMatchObject({
      path: 'windowGate.profiles.local',
      message: expect.stringContaining('bogus') as unknown,
    });
    expect((await refusal({ breaker: [] }))[0]?.path).toBe('breaker');
    // Nothing of the refused patches was stored.
    expect(await h.core.router.call('resilience.getSettings', undefined)).toEqual({
      ok: true,
      value: DEFAULT_RESILIENCE_SETTINGS,
    });
  });

  it('LOCK-10: a cross-field rule the schema cannot see alone still refuses the merged settings, naming the path', async () => {
    expect(await refusal({ windowGate: { minRetryCooldownMs: 60_000, maxRetryCooldownMs: 30_000 } })).toEqual([
      { path: 'windowGate.maxRetryCooldownMs', message: 'must be at least minRetryCooldownMs' },
    ]);
  });

  it('LOCK-10: clamped sections accept any number at the contract and answer it pulled into range, typed as the settings in force', async () => {
    const result = await h.core.router.call('resilience.updateSettings', {
      cooldown: { local: { baseCooldownMs: 1 } },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const settings = result.value as typeof DEFAULT_RESILIENCE_SETTINGS;
    expect(settings.cooldown.local.baseCooldownMs).toBe(100);
    expect(settings.cooldown.apikey).toEqual(DEFAULT_RESILIENCE_SETTINGS.cooldown.apikey);
    expect(Object.keys(settings).sort()).toEqual(Object.keys(DEFAULT_RESILIENCE_SETTINGS).sort());
  });
});
