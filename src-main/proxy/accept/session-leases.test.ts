import { afterEach, describe, expect, it } from 'vitest';
import { LEASE_OWNER_PATTERN } from '../../../src-shared/domain/lease';
import { startFakeUpstream, type FakeUpstream } from '../../testing/fake-upstream';
import { anthropicConnection, startLeeway, TEST_LOCAL_KEY, type RunningLeeway } from '../../testing/start-leeway';
import { leaseCall } from '../../testing/team/team-sessions.testkit';

const AGENT_KEY = 'lw-agent-key-0123456789abcdef';
const AGENT2_KEY = 'lw-agent2-key-0123456789abcdef';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

async function scene() {
  const a = await startFakeUpstream({ format: 'anthropic', name: 'a' });
  const b = await startFakeUpstream({ format: 'anthropic', name: 'b' });
  upstreams.push(a, b);
  const lease = { scopes: ['lease:exclusive'], allowedConnections: ['acct-a', 'acct-b'] };
  leeway = await startLeeway({
    connections: [
      anthropicConnection('acct-a', a.url, { priority: 1 }),
      anthropicConnection('acct-b', b.url, { priority: 2 }),
    ],
    keys: [
      { name: 'test', key: TEST_LOCAL_KEY },
      { name: 'agent', key: AGENT_KEY, ...lease },
      { name: 'agent2', key: AGENT2_KEY, ...lease },
    ],
    combos: [
      {
        name: 'main',
        targets: [
          { connection: 'acct-a', model: 'claude-sonnet-4-5' },
          { connection: 'acct-b', model: 'claude-sonnet-4-5' },
        ],
      },
    ],
  });
  return { a, b, h: leeway };
}

interface Grant {
  owner: string;
  generation: number;
  connection: string;
  expiresAt: number;
  state: string;
}

/** The lease door through the team testkit's call; the grant's fields typed for these tests. */
async function lease(h: RunningLeeway, key: string, body: Record<string, unknown>, owner?: string) {
  const answer = await leaseCall(h.url, key, body, owner);
  return { ...answer, json: answer.json as Record<string, unknown> & Partial<Grant> };
}

async function acquire(h: RunningLeeway, key = AGENT_KEY, owner?: string): Promise<Grant> {
  const { status, json } = await lease(h, key, { action: 'acquire' }, owner);
  expect(status).toBe(200);
  const { owner: id, generation, connection, expiresAt, state } = json;
  if (
    id === undefined ||
    generation === undefined ||
    connection === undefined ||
    expiresAt === undefined ||
    state === undefined
  )
    throw new Error(`not a lease grant: ${JSON.stringify(json)}`);
  return { owner: id, generation, connection, expiresAt, state };
}

async function ask(h: RunningLeeway, key: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01', ...headers },
    body: JSON.stringify({ model: 'main', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  return {
    res,
    json: (await res.json()) as { error?: { type: string; message: string }; leeway?: { code: string } },
  };
}

const held = (g: Grant, generation = g.generation) => ({
  'x-leeway-lease-owner': g.owner,
  'x-leeway-lease-generation': String(generation),
});

describe('exclusive leases on the proxy port (POST /api/v1/session-leases)', () => {
  it('LEASE-1, LEASE-2, LEASE-4, LEASE-5, LEASE-7: acquire (no model, client name or user-agent needed), use, renew and release a lease', async () => {
    const { a, b, h } = await scene();
    const first = await acquire(h);
    expect(first.owner).toMatch(LEASE_OWNER_PATTERN);
    expect(first).toMatchObject({ generation: 1, connection: 'acct-a', state: 'acquired' });
    // At most one active lease per connection: another owner gets the other one.
    const second = await acquire(h, AGENT2_KEY);
    expect(second.connection).toBe('acct-b');

    const used = await ask(h, AGENT_KEY, held(first));
    expect(used.res.status).toBe(200);
    expect(used.res.headers.get('x-leeway-connection')).toBe('acct-a');
    const usedB = await ask(h, AGENT2_KEY, held(second));
    expect(usedB.res.headers.get('x-leeway-connection')).toBe('acct-b');

    const renewed = await lease(h, AGENT_KEY, { action: 'renew', generation: 1, ttlMs: 600_000 }, first.owner);
    expect(renewed.status).toBe(200);
    expect(renewed.json).toMatchObject({ generation: 1, connection: 'acct-a', state: 'renewed' });
    expect(renewed.json.expiresAt as number).toBeGreaterThan(first.expiresAt);

    const released = await lease(h, AGENT_KEY, { action: 'release', generation: 1 }, first.owner);
    expect(released.status).toBe(200);
    expect(released.json).toMatchObject({ state: 'released', generation: 1, already: false });
    const again = await lease(h, AGENT_KEY, { action: 'release', generation: 1 }, first.owner);
    expect(again.json).toMatchObject({ already: true });

    const before = a.requests.length + b.requests.length;
    const after = await ask(h, AGENT_KEY, held(first));
    expect(after.res.status).toBe(409);
    expect(after.json.leeway?.code).toBe('lease_not_held');
    expect(a.requests.length + b.requests.length).toBe(before);
  });

  it('LEASE-13: a lease outlives the requests that use it and is no concurrency permit: an idle leased connection still refuses others until released', async () => {
    const { h } = await scene();
    const grant = await acquire(h);
    expect(grant.connection).toBe('acct-a');
    for (let i = 0; i < 2; i++) {
      // Each request takes and frees its per-connection permit; the lease (and its generation) stays.
      const used = await ask(h, AGENT_KEY, held(grant));
      expect(used.res.headers.get('x-leeway-connection')).toBe('acct-a');
    }
    // acct-a has nothing in flight, yet an ordinary key is sent past it: the lease is the fence, not occupancy.
    expect((await ask(h, TEST_LOCAL_KEY)).res.headers.get('x-leeway-connection')).toBe('acct-b');
    const released = await lease(h, AGENT_KEY, { action: 'release', generation: grant.generation }, grant.owner);
    expect(released.status).toBe(200);
    expect((await ask(h, TEST_LOCAL_KEY)).res.headers.get('x-leeway-connection')).toBe('acct-a');
  });

  it('LEASE-6: a stale generation is refused before anything goes upstream', async () => {
    const { a, b, h } = await scene();
    const first = await acquire(h);
    await lease(h, AGENT_KEY, { action: 'release', generation: 1 }, first.owner);
    const next = await acquire(h, AGENT_KEY, first.owner);
    expect(next).toMatchObject({ owner: first.owner, generation: 2 });
    const stale = await ask(h, AGENT_KEY, held(first, 1));
    expect(stale.res.status).toBe(409);
    expect(stale.json.leeway?.code).toBe('lease_generation_stale');
    expect(stale.json.error?.type).toBe('invalid_request_error');
    expect(a.requests.length + b.requests.length).toBe(0);
  });

  it('LEASE-8: another key presenting the owner is refused with lease_key_mismatch and zero upstream calls', async () => {
    const { a, b, h } = await scene();
    const grant = await acquire(h);
    const other = await ask(h, AGENT2_KEY, held(grant));
    expect(other.res.status).toBe(403);
    expect(other.json.leeway?.code).toBe('lease_key_mismatch');
    expect(a.requests.length + b.requests.length).toBe(0);
  });

  it('LEASE-11: every allowed connection leased by others is a 429 lease_capacity_unavailable with a bounded Retry-After', async () => {
    const { a, b, h } = await scene();
    await acquire(h);
    await acquire(h, AGENT2_KEY);
    const third = await lease(h, AGENT_KEY, { action: 'acquire' });
    expect(third.status).toBe(429);
    expect((third.json.leeway as { code: string }).code).toBe('lease_capacity_unavailable');
    const retry = Number(third.retryAfter);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(120);

    // A request without a lease skips leased connections; with all of them leased it waits for capacity.
    const plain = await ask(h, TEST_LOCAL_KEY);
    expect(plain.res.status).toBe(429);
    expect(plain.json.leeway?.code).toBe('lease_capacity_unavailable');
    expect(Number(plain.res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(a.requests.length + b.requests.length).toBe(0);
  });

  it('LEASE-1: a request without a lease skips a connection another owner holds', async () => {
    const { a, h } = await scene();
    const grant = await acquire(h);
    expect(grant.connection).toBe('acct-a');
    const plain = await ask(h, TEST_LOCAL_KEY);
    expect(plain.res.status).toBe(200);
    expect(plain.res.headers.get('x-leeway-connection')).toBe('acct-b');
    expect(a.requests.length).toBe(0);
  });

  it('LEASE-3: a key without the lease:exclusive scope is refused with 403 lease_scope_required', async () => {
    const { h } = await scene();
    const { status, json } = await lease(h, TEST_LOCAL_KEY, { action: 'acquire' });
    expect(status).toBe(403);
    expect((json.leeway as { code: string }).code).toBe('lease_scope_required');
  });

  it('LEASE-5: the door needs the local key, JSON actions and POST', async () => {
    const { h } = await scene();
    expect((await lease(h, 'lw-wrong-key-000000000000', { action: 'acquire' })).status).toBe(401);
    expect((await lease(h, AGENT_KEY, { action: 'steal' })).status).toBe(400);
    const get = await fetch(`${h.url}/api/v1/session-leases`, { headers: { 'x-api-key': AGENT_KEY } });
    expect(get.status).toBe(405);
  });

  it('LEASE-10, PROD-15: lease headers (and their aliases) never reach the upstream', async () => {
    const { a, b, h } = await scene();
    const grant = await acquire(h);
    await ask(h, AGENT_KEY, held(grant));
    await ask(h, AGENT_KEY, {
      'x-omniroute-lease-owner': grant.owner,
      'x-omniroute-lease-generation': String(grant.generation),
    });
    const sent = [...a.requests, ...b.requests];
    expect(sent.length).toBe(2);
    for (const r of sent) {
      expect(JSON.stringify(r.headers)).not.toContain(grant.owner);
      expect(Object.keys(r.headers).some((name) => name.includes('lease'))).toBe(false);
    }
  });
});
