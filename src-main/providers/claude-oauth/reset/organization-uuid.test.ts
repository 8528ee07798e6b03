import { describe, expect, it } from 'vitest';
import { attemptClaudeLimitReset } from './attempt-limit-reset';
import { BASE, NOW, TOKEN, attemptFor, fakeAnthropic, statusBody } from './claude-reset.testkit';
import { createLimitResetStore } from './limit-reset-store';
import { resolveOrganizationUuid } from './organization-uuid';
import { RESET_FAILURE_BACKOFF_MS } from './reset-memo';
import { readResetSettings } from './reset-settings';

const ok = (json: unknown) => ({ status: 200, json });

describe('TEST-7 claude-limit-reset', () => {
  it('RESET-1: only the literal boolean true opts in; the default is off', () => {
    expect(readResetSettings(undefined).autoLimitReset).toBe(false);
    expect(readResetSettings({ autoLimitReset: 'true' }).autoLimitReset).toBe(false);
    expect(readResetSettings({ autoLimitReset: true }).autoLimitReset).toBe(true);
  });

  it('RESET-5: organizationUUID wins over organization_uuid; blank values are missing', () => {
    expect(readResetSettings({ organizationUUID: 'a', organization_uuid: 'b' }).organizationUuid).toBe('a');
    expect(readResetSettings({ organizationUUID: '  ', organization_uuid: 'b' }).organizationUuid).toBe('b');
    expect(readResetSettings({}).organizationUuid).toBeNull();
  });

  it('RESET-5: a stored UUID needs no network; otherwise the bootstrap endpoint names it', async () => {
    const fake = fakeAnthropic({ bootstrap: ok({ organization_uuid: 'org-boot', account_uuid: 'x' }) });
    const endpoint = { accessToken: TOKEN, baseUrl: BASE, fetchJson: fake.fetchJson };
    expect(
      await resolveOrganizationUuid({ ...endpoint, providerSpecificData: { organizationUUID: 'org-kept' } }),
    ).toEqual({
      kind: 'stored',
      organizationUuid: 'org-kept',
    });
    expect(fake.calls).toHaveLength(0);
    expect(await resolveOrganizationUuid(endpoint)).toEqual({ kind: 'bootstrap', organizationUuid: 'org-boot' });
    expect(fake.calls[0]).toMatchObject({ method: 'GET', url: `${BASE}/api/claude_cli/bootstrap` });
    expect(fake.calls[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('RESET-5: the attempt falls back to bootstrap and reports the UUID so the core can persist it', async () => {
    const fake = fakeAnthropic({
      status: ok(statusBody()),
      bootstrap: ok({ organization_uuid: 'org 9' }),
      claim: ok({ result: 'reset' }),
    });
    const result = await attemptClaudeLimitReset(attemptFor(fake.fetchJson, undefined, { providerSpecificData: {} }));
    expect(result).toMatchObject({ reset: true, outcome: 'reset', discoveredOrganizationUuid: 'org 9' });
    expect(fake.calls.map((c) => new URL(c.url).pathname)).toEqual([
      '/api/oauth/usage',
      '/api/claude_cli/bootstrap',
      '/api/organizations/org%209/reset_rate_limits',
    ]);
  });

  it('RESET-8: no organisation anywhere → no_organization, no claim, 15-minute back-off', async () => {
    const fake = fakeAnthropic({ status: ok(statusBody()), bootstrap: { status: 403, json: null } });
    const store = createLimitResetStore();
    const result = await attemptClaudeLimitReset(attemptFor(fake.fetchJson, store, { providerSpecificData: {} }));
    expect(result).toMatchObject({ reset: false, outcome: 'no_organization' });
    expect(fake.posts()).toBe(0);
    expect(store.readMemo('conn-a')?.notBeforeMs).toBe(NOW + RESET_FAILURE_BACKOFF_MS);
  });

  it('RESET-8: a status timeout or a throwing transport is no_status, never an exception', async () => {
    const timedOut = fakeAnthropic({ status: { error: 'timeout' } });
    await expect(attemptClaudeLimitReset(attemptFor(timedOut.fetchJson))).resolves.toMatchObject({
      outcome: 'no_status',
    });
    const throwing = attemptFor(() => Promise.reject(new Error('boom')));
    await expect(attemptClaudeLimitReset(throwing)).resolves.toMatchObject({ reset: false, outcome: 'no_status' });
  });

  it('TEST-7: memos are per key and FIFO-bounded', async () => {
    const fake = fakeAnthropic({ status: { status: 500, json: null } });
    const store = createLimitResetStore({ maxKeys: 2 });
    for (const key of ['a', 'b', 'c']) await attemptClaudeLimitReset(attemptFor(fake.fetchJson, store, { key }));
    expect(store.snapshot().map((entry) => entry.key)).toEqual(['b', 'c']);
    expect((await attemptClaudeLimitReset(attemptFor(fake.fetchJson, store, { key: 'b' }))).outcome).toBe('memo_skip');
  });
});
