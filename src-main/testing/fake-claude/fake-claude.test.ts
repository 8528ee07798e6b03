import { afterEach, describe, expect, it } from 'vitest';
import { startFakeClaude, type FakeClaude } from './fake-claude';

const started: FakeClaude[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});

async function start(): Promise<FakeClaude> {
  const fake = await startFakeClaude({ name: 'fc' });
  started.push(fake);
  return fake;
}

const P = 'anthropic-ratelimit-unified-';

function post(fake: FakeClaude, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

function ask(
  fake: FakeClaude,
  extra: Record<string, string> = {},
  token = fake.tokens.accessToken ?? '',
): Promise<Response> {
  return post(
    fake,
    '/v1/messages',
    { model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] },
    { authorization: `Bearer ${token}`, 'anthropic-beta': 'oauth-2025-04-20', ...extra },
  );
}

const refresh = (fake: FakeClaude, token: string) =>
  post(fake, '/v1/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: token,
    client_id: 'client',
    scope: 'user:inference',
  });

describe('fake Claude service', () => {
  it('TEST-8: a normal answer carries the unified 5h/7d usage headers with status allowed', async () => {
    const fake = await start();
    const res = await ask(fake);
    const json = (await res.json()) as { content: { text: string }[] };
    expect(res.status).toBe(200);
    expect(json.content[0]?.text).toBe('Hello from fc.');
    expect(res.headers.get(`${P}status`)).toBe('allowed');
    expect(Number(res.headers.get(`${P}5h-utilization`))).toBeCloseTo(0.42);
    expect(Number(res.headers.get(`${P}7d-reset`))).toBe(fake.usage.sevenDay.resetAt);
  });

  it('TEST-8: a stale bearer or a missing OAuth beta gets 401', async () => {
    const fake = await start();
    expect((await ask(fake, {}, 'sk-ant-oat01-other')).status).toBe(401);
    expect((await ask(fake, { 'anthropic-beta': 'tools-2024' })).status).toBe(401);
    const current = fake.tokens.accessToken ?? '';
    expect((await ask(fake, {}, current)).status).toBe(200);
    fake.revokeAccessToken();
    expect((await ask(fake, {}, current)).status).toBe(401);
  });

  it('TEST-8: at the wall a plain request gets the limit 429 with the offer, a slow one is served, steps script slot_busy', async () => {
    const fake = await start();
    const resetAt = Math.floor(Date.now() / 1000) + 3600;
    fake.setWall({ resetAt });
    fake.enqueueSlow({ kind: 'slot_busy', retryAfter: 7 });
    const wall = await ask(fake);
    expect(wall.status).toBe(429);
    expect(wall.headers.get(`${P}status`)).toBe('rejected');
    expect(wall.headers.get(`${P}reset`)).toBe(String(resetAt));
    expect(wall.headers.get(`${P}representative-claim`)).toBe('five_hour');
    expect(wall.headers.get(`${P}slow-offer`)).toBe('treatment');
    const busy = await ask(fake, { 'anthropic-usage-limit': 'slow' });
    expect(busy.status).toBe(429);
    expect(busy.headers.get(`${P}slow-status`)).toBe('slot_busy');
    expect(busy.headers.get(`${P}slow-retry-after`)).toBe('7');
    const slow = await ask(fake, { 'anthropic-usage-limit': 'slow' });
    expect(slow.status).toBe(200);
    expect(slow.headers.get(`${P}slow-status`)).toBe('active');
    fake.setWall(null);
    expect((await ask(fake, { 'anthropic-usage-limit': 'slow' })).headers.get(`${P}slow-status`)).toBe('not_needed');
  });

  it('TEST-8: the token endpoint rotates both tokens, refuses a spent refresh token with invalid_grant and counts calls', async () => {
    const fake = await start();
    const first = fake.tokens.refreshToken;
    const oldAccess = fake.tokens.accessToken ?? '';
    const res = await refresh(fake, first);
    const json = (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
    expect(res.status).toBe(200);
    expect(json.access_token).toMatch(/^sk-ant-oat01-/);
    expect(json.refresh_token).not.toBe(first);
    expect(json.expires_in).toBe(28_800);
    expect((await ask(fake, {}, oldAccess)).status).toBe(401);
    expect((await ask(fake, {}, json.access_token)).status).toBe(200);
    const spent = await refresh(fake, first);
    expect(spent.status).toBe(400);
    expect(await spent.json()).toMatchObject({ error: 'invalid_grant' });
    expect(fake.tokenCalls()).toHaveLength(2);
  });

  it('TEST-7: usage status shows the juniper_tide block; a granted claim lifts the wall; bootstrap names the organisation', async () => {
    const fake = await start();
    fake.setWall({ resetAt: Math.floor(Date.now() / 1000) + 3600 });
    const auth = { authorization: `Bearer ${fake.tokens.accessToken ?? ''}` };
    const status = await fetch(`${fake.url}/api/oauth/usage?at_wall=1&skip_spend=1`, { headers: auth });
    expect(await status.json()).toMatchObject({ juniper_tide: { eligible: true, arm: 'reset', available: true } });
    const boot = await fetch(`${fake.url}/api/claude_cli/bootstrap`, { headers: auth });
    expect(await boot.json()).toMatchObject({ organization_uuid: fake.organizationUuid });
    const wrongOrg = await post(fake, '/api/organizations/nope/reset_rate_limits', { program: 'juniper_tide' }, auth);
    expect(wrongOrg.status).toBe(404);
    const claim = await post(
      fake,
      `/api/organizations/${fake.organizationUuid}/reset_rate_limits`,
      { program: 'juniper_tide' },
      auth,
    );
    expect(await claim.json()).toMatchObject({ result: 'reset' });
    expect(fake.wall).toBeNull();
    expect((await ask(fake)).status).toBe(200);
    expect(fake.statusCalls()).toHaveLength(1);
    expect(fake.claimCalls()).toHaveLength(2);
    expect(fake.bootstrapCalls()).toHaveLength(1);
  });
});
