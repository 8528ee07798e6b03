import { describe, expect, it } from 'vitest';
import { attemptClaudeLimitReset } from './attempt-limit-reset';
import { ORG, BASE, DAY, NOW, TOKEN, attemptFor, fakeAnthropic, statusBody } from './claude-reset.testkit';
import { createLimitResetStore } from './limit-reset-store';
import { parseClaimResult, readClaimResponse } from './parse-claim-result';
import { parseResetStatus } from './parse-reset-status';
import { RESET_FAILURE_BACKOFF_MS, RESET_WEEK_MS } from './reset-memo';
import { resetClaimUrl, resetStatusUrl } from './reset-requests';

const ok = (json: unknown) => ({ status: 200, json });
const inThreeDays = new Date(NOW + 3 * DAY).toISOString();

describe('TEST-7 claude-limit-reset', () => {
  it('RESET-3: status parser (§7.6 #27): {} → null, missing eligible → null, full block in camelCase, bogus arm → null', () => {
    expect(parseResetStatus({})).toBeNull();
    expect(parseResetStatus({ juniper_tide: { arm: 'reset', available: true } })).toBeNull();
    const full = {
      eligible: true,
      ineligible_reason: null,
      in_experiment: true,
      arm: 'reset',
      available: true,
      next_available_at: inThreeDays,
      weekly_resets_at: (NOW + 5 * DAY) / 1000,
    };
    expect(parseResetStatus({ juniper_tide: full })).toEqual({
      eligible: true,
      ineligibleReason: null,
      inExperiment: true,
      arm: 'reset',
      available: true,
      nextAvailableAt: NOW + 3 * DAY,
      weeklyResetsAt: NOW + 5 * DAY,
      resetsPerWeek: 1,
    });
    expect(parseResetStatus({ juniper_tide: { ...full, arm: 'bogus' } })).toBeNull();
  });

  it('RESET-4: claim parser (§7.6 #28): a known result is kept; "???" or null → unavailable', () => {
    expect(parseClaimResult({ result: 'already_used', next_available_at: inThreeDays })).toEqual({
      result: 'already_used',
      nextAvailableAt: NOW + 3 * DAY,
      weeklyResetsAt: null,
    });
    expect(parseClaimResult({ result: '???' }).result).toBe('unavailable');
    expect(parseClaimResult(null).result).toBe('unavailable');
    expect(readClaimResponse({ status: 500, json: { result: 'reset' } }).result).toBe('error');
    expect(readClaimResponse({ error: 'timeout' }).result).toBe('error');
  });

  it('RESET-4: the claim URL percent-encodes the UUID (§7.6 #29) and every URL honours the base URL', () => {
    expect(resetClaimUrl('org 1', BASE)).toBe(`${BASE}/api/organizations/org%201/reset_rate_limits`);
    expect(resetClaimUrl('a/b?c')).toBe('https://api.anthropic.com/api/organizations/a%2Fb%3Fc/reset_rate_limits');
    expect(resetStatusUrl(`${BASE}/`)).toBe(`${BASE}/api/oauth/usage?at_wall=1&skip_spend=1`);
  });

  it('RESET-4: available → GET status then POST claim with Bearer, oauth beta and juniper_tide (§7.6 #30)', async () => {
    const fake = fakeAnthropic({
      status: ok(statusBody()),
      claim: ok({ result: 'reset', next_available_at: inThreeDays }),
    });
    const store = createLimitResetStore();
    const result = await attemptClaudeLimitReset(attemptFor(fake.fetchJson, store));
    expect(result).toMatchObject({ reset: true, outcome: 'reset', nextAvailableAt: NOW + 3 * DAY });
    const [status, claim] = fake.calls;
    expect(fake.calls).toHaveLength(2);
    expect(status).toMatchObject({
      method: 'GET',
      url: `${BASE}/api/oauth/usage?at_wall=1&skip_spend=1`,
      timeoutMs: 5_000,
    });
    expect(claim).toMatchObject({
      method: 'POST',
      url: `${BASE}/api/organizations/${ORG}/reset_rate_limits`,
      timeoutMs: 25_000,
    });
    expect(claim?.body).toEqual({ program: 'juniper_tide' });
    for (const call of fake.calls) {
      expect(call.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'anthropic-beta': 'oauth-2025-04-20' });
      expect(call.headers['user-agent']).toMatch(/^claude-code\//);
    }
    const again = await attemptClaudeLimitReset(attemptFor(fake.fetchJson, store, { now: NOW + 60_000 }));
    expect(again).toMatchObject({ reset: false, outcome: 'memo_skip', nextAvailableAt: NOW + 3 * DAY });
    expect(fake.calls).toHaveLength(2);
  });

  it('RESET-7: not available with next_available_at +3 days → not_offered; memo to the millisecond (§7.6 #31)', async () => {
    const fake = fakeAnthropic({ status: ok(statusBody({ available: false, next_available_at: inThreeDays })) });
    const store = createLimitResetStore();
    const at = (now: number) => attemptClaudeLimitReset(attemptFor(fake.fetchJson, store, { now }));
    expect(await at(NOW)).toMatchObject({ reset: false, outcome: 'not_offered', nextAvailableAt: NOW + 3 * DAY });
    expect(fake.calls).toHaveLength(1);
    expect((await at(NOW + 3 * DAY - 1)).outcome).toBe('memo_skip');
    expect(fake.calls).toHaveLength(1);
    expect((await at(NOW + 3 * DAY + 1)).outcome).toBe('not_offered');
    expect(fake.calls).toHaveLength(2);
  });

  it('RESET-4: the control arm is not_offered and never claims (§7.6 #32)', async () => {
    const fake = fakeAnthropic({
      status: ok(statusBody({ arm: 'control', available: true })),
      claim: ok({ result: 'reset' }),
    });
    const store = createLimitResetStore();
    expect(await attemptClaudeLimitReset(attemptFor(fake.fetchJson, store))).toMatchObject({
      reset: false,
      outcome: 'not_offered',
    });
    expect(fake.posts()).toBe(0);
    // RESET-7 wins over the reference's 15 min: not_offered without next_available_at waits a week.
    expect(store.readMemo('conn-a')?.notBeforeMs).toBe(NOW + RESET_WEEK_MS);
  });

  it('RESET-8: status 500 → no_status with a memo of exactly 15 minutes (§7.6 #32)', async () => {
    const fake = fakeAnthropic({ status: { status: 500, json: null } });
    const store = createLimitResetStore();
    const at = (now: number) => attemptClaudeLimitReset(attemptFor(fake.fetchJson, store, { now }));
    expect(await at(NOW)).toMatchObject({ reset: false, outcome: 'no_status' });
    expect(RESET_FAILURE_BACKOFF_MS).toBe(15 * 60_000);
    expect((await at(NOW + 15 * 60_000 - 1)).outcome).toBe('memo_skip');
    expect(fake.calls).toHaveLength(1);
    expect((await at(NOW + 15 * 60_000)).outcome).toBe('no_status');
    expect(fake.calls).toHaveLength(2);
  });

  it('RESET-7: already_used without next_available_at → memo for a week (§7.6 #33)', async () => {
    const fake = fakeAnthropic({ status: ok(statusBody()), claim: ok({ result: 'already_used' }) });
    const store = createLimitResetStore();
    const at = (now: number) => attemptClaudeLimitReset(attemptFor(fake.fetchJson, store, { now }));
    expect(await at(NOW)).toMatchObject({ reset: false, outcome: 'already_used' });
    expect((await at(NOW + 6 * DAY)).outcome).toBe('memo_skip');
    expect((await at(NOW + 7 * DAY - 1)).outcome).toBe('memo_skip');
    expect(fake.calls).toHaveLength(2);
    await at(NOW + 7 * DAY);
    expect(fake.calls).toHaveLength(4);
  });

  it('RESET-8: claim 401/403 → auth_error, 429 → rate_limited; non-fatal, reset false (§7.6 #34)', async () => {
    for (const [status, outcome] of [
      [401, 'auth_error'],
      [403, 'auth_error'],
      [429, 'rate_limited'],
    ] as const) {
      const fake = fakeAnthropic({ status: ok(statusBody()), claim: { status, json: { error: 'no' } } });
      const store = createLimitResetStore();
      await expect(attemptClaudeLimitReset(attemptFor(fake.fetchJson, store))).resolves.toMatchObject({
        reset: false,
        outcome,
      });
      expect(store.readMemo('conn-a')?.notBeforeMs).toBe(NOW + RESET_FAILURE_BACKOFF_MS);
    }
  });

  it('RESET-4: three concurrent attempts → identical results, exactly one POST, 2 calls (§7.6 #35)', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fake = fakeAnthropic({
      status: ok(statusBody()),
      claim: async () => (await gate, ok({ result: 'reset' })),
    });
    const store = createLimitResetStore();
    const attempts = [0, 1, 2].map((i) => attemptClaudeLimitReset(attemptFor(fake.fetchJson, store, { now: NOW + i })));
    release();
    const [a, b, c] = await Promise.all(attempts);
    expect(a).toEqual(b);
    expect(b).toEqual(c);
    expect(a).toMatchObject({ reset: true, outcome: 'reset' });
    expect(fake.posts()).toBe(1);
    expect(fake.calls).toHaveLength(2);
    expect(store.pending('conn-a')).toBeUndefined();
  });

  it('RESET-6: after a grant, a sibling 5 s later is recent_reset without network; 60 s + 1 → memo_skip (§7.6 #36)', async () => {
    const fake = fakeAnthropic({ status: ok(statusBody()), claim: ok({ result: 'reset' }) });
    const store = createLimitResetStore();
    const at = (now: number) => attemptClaudeLimitReset(attemptFor(fake.fetchJson, store, { now }));
    await at(NOW);
    expect(await at(NOW + 5_000)).toMatchObject({ reset: true, outcome: 'recent_reset' });
    expect(await at(NOW + 60_001)).toMatchObject({
      reset: false,
      outcome: 'memo_skip',
      nextAvailableAt: NOW + RESET_WEEK_MS,
    });
    expect(fake.calls).toHaveLength(2);
  });

  it('RESET-6: not_limited counts as reset; RESET-5: snake_case organization_uuid is accepted (§7.6 #37)', async () => {
    const fake = fakeAnthropic({ status: ok(statusBody()), claim: ok({ result: 'not_limited' }) });
    const psd = { autoLimitReset: true, organization_uuid: 'org-snake' };
    const result = await attemptClaudeLimitReset(attemptFor(fake.fetchJson, undefined, { providerSpecificData: psd }));
    expect(result).toMatchObject({ reset: true, outcome: 'not_limited' });
    expect(fake.calls[1]?.url).toBe(`${BASE}/api/organizations/org-snake/reset_rate_limits`);
  });
});
