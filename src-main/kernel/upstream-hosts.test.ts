import { describe, expect, it } from 'vitest';
import { catalogProviderOf } from '../quota/engine/plan-catalog';
import { resolveService } from '../resilience/classify/known-providers';
import { providerIdentity } from './provider-identity';
import { UPSTREAM_HOSTS } from './upstream-hosts';

describe('one host catalog (issue 22 step 3)', () => {
  it('ISSUE-22: every row says something, and no host is listed twice for the same fact', () => {
    for (const row of UPSTREAM_HOSTS) expect(row.service !== undefined || row.plan !== undefined).toBe(true);
    const services = UPSTREAM_HOSTS.filter((r) => r.service !== undefined).map((r) => r.suffix);
    const plans = UPSTREAM_HOSTS.filter((r) => r.plan !== undefined).map((r) => r.suffix);
    expect(new Set(services).size).toBe(services.length);
    expect(new Set(plans).size).toBe(plans.length);
  });

  it('ISSUE-22: the classifier and the plan catalog read the same table for one host', () => {
    const moonshot = 'https://api.moonshot.ai/v1';
    expect(resolveService(providerIdentity('openai-compatible', 'https://api.moonshot.ai'))).toEqual({
      id: 'moonshot',
      known: true,
    });
    expect(catalogProviderOf({ kind: 'openai-compatible', baseUrl: moonshot })).toBe('kimi');
    // A Claude subscription reports its own windows: no host plan, whatever the host.
    expect(catalogProviderOf({ kind: 'claude-oauth', baseUrl: moonshot })).toBeNull();
    expect(catalogProviderOf({ kind: 'openai', baseUrl: 'https://chatgpt.com/elsewhere' })).toBeNull();
    expect(catalogProviderOf({ kind: 'openai', baseUrl: 'https://chatgpt.com/backend-api/codex' })).toBe('codex');
  });
});
