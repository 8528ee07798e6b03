import { describe, expect, it } from 'vitest';
import type { FetchJson } from './reset/fetch-json';
import { createOAuthTokens, REFRESH_RETRY_AFTER_MS } from './oauth-tokens';

type Secret = { type: 'oauth'; accessToken: string; refreshToken?: string; expiresAt?: number };

function setup(answers: Array<{ status: number; json: unknown } | { error: 'timeout' | 'network' }>) {
  let clock = 1_800_000_000_000;
  let stored: Secret = { type: 'oauth', accessToken: 'sk-ant-oat01-old', refreshToken: 'rt-old', expiresAt: clock - 1 };
  const calls: unknown[] = [];
  const reauth: string[] = [];
  const fetchJson: FetchJson = async (request) => {
    calls.push(request.body);
    return answers.shift() ?? { error: 'network' };
  };
  const tokens = createOAuthTokens({
    readSecret: () => stored,
    saveSecret: (_id, secret) => void (stored = secret),
    onNeedsReauth: (_id, message) => void reauth.push(message),
    fetchJson,
    tokenUrl: () => 'https://token.example/v1/oauth/token',
    clientId: () => 'client',
    scopes: () => ['user:inference'],
    now: () => clock,
  });
  return { tokens, calls, reauth, advance: (ms: number) => void (clock += ms), stored: () => stored };
}

describe('OAuth token refresh', () => {
  it('TEST-8: concurrent callers share one refresh; the rotated refresh token is saved', async () => {
    const t = setup([
      { status: 200, json: { access_token: 'sk-ant-oat01-new', refresh_token: 'rt-new', expires_in: 3600 } },
    ]);
    const results = await Promise.all(Array.from({ length: 10 }, () => t.tokens.ensureFresh('c1')));
    expect(results.every((r) => r.ok && r.secret.accessToken === 'sk-ant-oat01-new')).toBe(true);
    expect(t.calls).toEqual([
      { grant_type: 'refresh_token', refresh_token: 'rt-old', client_id: 'client', scope: 'user:inference' },
    ]);
    expect(t.stored().refreshToken).toBe('rt-new');
  });

  it('TEST-8: invalid_grant asks for a new sign-in once', async () => {
    const t = setup([{ status: 400, json: { error: 'invalid_grant' } }]);
    const result = await t.tokens.ensureFresh('c1');
    expect(result).toMatchObject({ ok: false, reason: 'needs_reauth' });
    expect(t.reauth).toHaveLength(1);
  });

  it('TEST-8: after a transient failure the endpoint is not asked again until the retry interval passed', async () => {
    const t = setup([
      { status: 503, json: {} },
      { status: 200, json: { access_token: 'sk-ant-oat01-new', expires_in: 3600 } },
    ]);
    expect(await t.tokens.ensureFresh('c1')).toMatchObject({ ok: false, reason: 'failed' });
    t.advance(REFRESH_RETRY_AFTER_MS - 1);
    expect(await t.tokens.ensureFresh('c1')).toMatchObject({ ok: false, reason: 'failed' });
    expect(t.calls).toHaveLength(1);
    t.advance(1);
    expect(await t.tokens.ensureFresh('c1')).toMatchObject({ ok: true, refreshed: true });
    expect(t.calls).toHaveLength(2);
    // A rotation that omits refresh_token keeps the old one.
    expect(t.stored().refreshToken).toBe('rt-old');
  });
});
