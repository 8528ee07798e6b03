import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, connectionRow } from '../../resilience/resilience-it.testkit';
import { anthropicConnection } from '../../testing/start-leeway';
import { claudeConnection, type FakeClaude } from '../../testing/fake-claude/fake-claude';
import { fakeToken } from '../../testing/fake-claude/fake-claude-account';
import { activityEntries, bearer, MODEL, send, useClaudeScene } from '../../testing/fake-claude/claude-scene';

/* Claude subscription tokens through the real proxy: refresh before expiry, after a 401, rotation, invalid_grant, import. */
const scene = useClaudeScene();
const tempDirs: string[] = [];
afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const expired = () => Date.now() - 60_000;

function tokenBody(fake: FakeClaude, index: number): Record<string, unknown> {
  return (fake.tokenCalls()[index]?.json ?? {}) as Record<string, unknown>;
}

describe('claude-oauth token refresh', () => {
  it('TEST-8: an expired token makes ten concurrent requests share exactly one refresh; all succeed with the new token', async () => {
    const fake = await scene.claude({ name: 'sub' });
    const oldRefresh = fake.tokens.refreshToken;
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { expiresAt: expired() })] });
    const hintBefore = (await call(h, 'connections.list', undefined))[0]?.secretHint;
    // The refresh takes a while, so every request arrives while it is in flight.
    fake.setToken({ mode: 'rotate', delayMs: 150 });

    const results = await Promise.all(Array.from({ length: 10 }, () => send(h)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(fake.tokenCalls()).toHaveLength(1);
    expect(tokenBody(fake, 0)).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: oldRefresh,
      client_id: expect.any(String) as string,
    });
    const newAccess = fake.tokens.accessToken;
    expect(newAccess).toBe(fakeToken('access', 'sub', 1));
    expect(fake.messages()).toHaveLength(10);
    expect(fake.messages().every((r) => bearer(r) === newAccess)).toBe(true);
    const hintAfter = (await call(h, 'connections.list', undefined))[0]?.secretHint;
    expect(hintAfter).not.toBe(hintBefore);
    expect(hintAfter?.endsWith('0001')).toBe(true);
  });

  it('TEST-8: the rotated refresh token is saved: after a restart the next refresh presents it', async () => {
    const fake = await scene.claude({ name: 'sub' });
    await scene.start({ connections: [claudeConnection('sub', fake, { expiresAt: expired() })] });
    expect((await send(scene.h)).status).toBe(200);
    const rotated = fake.tokens.refreshToken;
    expect(rotated).toBe(fakeToken('refresh', 'sub', 1));

    // Restarted without the config entry, so what is used is what Leeway stored.
    const h = await scene.restart({ connections: [] });
    fake.revokeAccessToken();
    const res = await send(h);
    expect(res.status).toBe(200);
    expect(fake.tokenCalls()).toHaveLength(2);
    expect(tokenBody(fake, 1).refresh_token).toBe(rotated);
    expect(bearer(fake.messages().at(-1))).toBe(fakeToken('access', 'sub', 2));
  });

  it('TEST-8: restarting with the same config file keeps the rotated tokens instead of the stale ones in the file', async () => {
    const fake = await scene.claude({ name: 'sub' });
    const config = {
      connections: [claudeConnection('sub', fake, { expiresAt: expired(), organizationUUID: 'org-from-file' })],
    };
    await scene.start(config);
    expect((await send(scene.h)).status).toBe(200);
    const rotated = fake.tokens.refreshToken;

    // The very same file again: its (now retired) tokens must not overwrite the rotated ones.
    const h = await scene.restart(config);
    fake.revokeAccessToken();
    expect((await send(h)).status).toBe(200);
    expect(fake.tokenCalls()).toHaveLength(2);
    expect(tokenBody(fake, 1).refresh_token).toBe(rotated);
    const row = (await call(h, 'connections.list', undefined))[0];
    expect(row?.providerSpecificData.organizationUUID).toBe('org-from-file');
  });

  it('TEST-8: a 401 for a stale token triggers one refresh and the request is retried with the new token', async () => {
    const fake = await scene.claude({ name: 'sub' });
    const h = await scene.start({ connections: [claudeConnection('sub', fake)] });
    const staleToken = fake.tokens.accessToken;
    fake.revokeAccessToken();

    const res = await send(h);
    expect(res.status).toBe(200);
    expect(fake.tokenCalls()).toHaveLength(1);
    const [refused, retried] = fake.messages();
    expect(fake.messages()).toHaveLength(2);
    expect(bearer(refused)).toBe(staleToken);
    expect(refused?.response?.status).toBe(401);
    expect(bearer(retried)).toBe(fakeToken('access', 'sub', 1));
    expect((await connectionRow(h, 'sub')).testStatus).toBe('active');

    // The next request uses the new token straight away.
    expect((await send(h)).status).toBe(200);
    expect(fake.messages()).toHaveLength(3);
    expect(fake.tokenCalls()).toHaveLength(1);
  });

  it('TEST-8: invalid_grant marks the connection needs_reauth once; requests fail over and the token endpoint is not asked again', async () => {
    const fake = await scene.claude({ name: 'sub' });
    const backup = await scene.anthropic('backup');
    fake.setToken({ mode: 'invalid_grant' });
    const h = await scene.start({
      connections: [
        claudeConnection('sub', fake, { expiresAt: expired(), priority: 1 }),
        anthropicConnection('backup', backup.url, { priority: 2 }),
      ],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'sub', model: MODEL },
            { connection: 'backup', model: MODEL },
          ],
        },
      ],
    });

    const first = await send(h, { model: 'main' });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-leeway-connection')).toBe('backup');
    expect(first.headers.get('x-leeway-failover')).toContain('sub');
    const row = await connectionRow(h, 'sub');
    expect(row).toMatchObject({ testStatus: 'needs_reauth', terminal: true });
    expect(row.lastError).toContain('invalid_grant');

    for (let i = 0; i < 3; i++) expect((await send(h, { model: 'main' })).status).toBe(200);
    expect(fake.tokenCalls()).toHaveLength(1);
    expect(fake.messages()).toHaveLength(0);
    expect(backup.requests).toHaveLength(4);
    const entries = await activityEntries(h, 4);
    expect(entries.at(-1)?.failover).toEqual([{ connection: 'sub', status: null, reason: 'needs_reauth' }]);
  });

  it('TEST-8: invalid_grant on the only connection gives the client an error, and later requests are refused without a refresh', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setToken({ mode: 'invalid_grant' });
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { expiresAt: expired() })] });
    const first = await send(h);
    expect(first.status).toBe(502);
    expect(first.text).toContain('invalid_grant');
    // Terminal: screened out before dispatch (ROUTE-8's 404), naming why.
    const second = await send(h);
    expect(second.status).toBe(404);
    expect(JSON.parse(second.text)).toMatchObject({
      leeway: {
        code: 'no_executable_targets',
        details: { excluded: [{ connection: 'sub', reason: 'needs_reauth' }] },
      },
    });
    expect(fake.tokenCalls()).toHaveLength(1);
    expect(fake.messages()).toHaveLength(0);
  });

  it('TEST-8: a 401 whose refresh is refused (invalid_grant) is answered once, then the connection is screened out without more refreshes', async () => {
    const fake = await scene.claude({ name: 'sub' });
    const h = await scene.start({ connections: [claudeConnection('sub', fake)] });
    fake.revokeAccessToken();
    fake.setToken({ mode: 'invalid_grant' });
    const first = await send(h);
    expect(first.status).toBe(401);
    expect((await connectionRow(h, 'sub')).testStatus).toBe('needs_reauth');
    const second = await send(h);
    expect(second.status).toBe(404);
    expect(fake.tokenCalls()).toHaveLength(1);
    expect(fake.messages()).toHaveLength(1);
  });

  it('TEST-8: a token endpoint that fails for now is not needs_reauth, and is not asked again by every request', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setToken({ mode: 'error' });
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { expiresAt: expired() })] });
    const first = await send(h);
    expect(first.status).toBe(502);
    expect(JSON.parse(first.text)).toMatchObject({
      leeway: { details: { failover: [{ connection: 'sub', status: null, reason: 'refresh_failed' }] } },
    });
    expect(await connectionRow(h, 'sub')).toMatchObject({ testStatus: 'active', terminal: false });
    expect(fake.messages()).toHaveLength(0);

    // Within the retry interval the next request fails fast instead of hammering the endpoint.
    fake.setToken({ mode: 'rotate' });
    expect((await send(h)).status).toBe(502);
    expect(fake.tokenCalls()).toHaveLength(1);
  });
});

describe('claude.importCredentials', () => {
  function credentialsFile(accessToken: string, refreshToken: string, expiresAt: number): string {
    const dir = mkdtempSync(join(tmpdir(), 'leeway-claude-creds-'));
    tempDirs.push(dir);
    const file = join(dir, '.credentials.json');
    const claudeAiOauth = {
      accessToken,
      refreshToken,
      expiresAt,
      scopes: ['user:inference', 'user:profile'],
      subscriptionType: 'max',
    };
    writeFileSync(file, JSON.stringify({ claudeAiOauth }));
    return file;
  }

  it('PROD-5: importing a .credentials.json creates a claude-oauth connection with its scopes', async () => {
    const h = await scene.start({});
    const file = credentialsFile(
      'sk-ant-oat01-imported-access-token-000000000001',
      'sk-ant-ort01-imported-refresh',
      Date.now() + 3_600_000,
    );
    const view = await call(h, 'claude.importCredentials', { name: 'max-sub', path: file });
    expect(view).toMatchObject({
      name: 'max-sub',
      kind: 'claude-oauth',
      effectiveBaseUrl: 'https://api.anthropic.com',
    });
    expect(view.providerSpecificData).toMatchObject({
      scopes: ['user:inference', 'user:profile'],
      subscriptionType: 'max',
    });
    expect(view.secretHint).toBe('sk-ant…0001');
    expect(JSON.stringify(view)).not.toContain('imported-refresh');
    const listed = await call(h, 'connections.list', undefined);
    expect(listed.map((c) => c.name)).toEqual(['max-sub']);
  });

  it('PROD-5: importing again updates the token and clears needs_reauth; requests then use the imported token', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setToken({ mode: 'invalid_grant' });
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { expiresAt: expired() })] });
    expect((await send(h)).status).toBe(502);
    expect((await connectionRow(h, 'sub')).testStatus).toBe('needs_reauth');

    // A fresh login: the account has a new pair, which Claude Code wrote to its credentials file.
    const fresh = {
      accessToken: 'sk-ant-oat01-fresh-login-access-token-0000000000042',
      refreshToken: 'sk-ant-ort01-fresh-login-refresh',
    };
    fake.setTokens(fresh);
    fake.setToken({ mode: 'rotate' });
    const file = credentialsFile(fresh.accessToken, fresh.refreshToken, Date.now() + 3_600_000);
    const view = await call(h, 'claude.importCredentials', { name: 'sub', path: file });
    expect(view.secretHint).toBe('sk-ant…0042');
    // Base URL and the token endpoint survive the import.
    expect(view.baseUrl).toBe(fake.url);
    expect(view.providerSpecificData.oauthTokenUrl).toBe(fake.tokenUrl);
    expect(await connectionRow(h, 'sub')).toMatchObject({ testStatus: 'active', terminal: false });

    const res = await send(h);
    expect(res.status).toBe(200);
    expect(bearer(fake.messages()[0])).toBe(fresh.accessToken);
    expect(fake.tokenCalls()).toHaveLength(1);
  });
});
