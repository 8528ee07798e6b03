import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';
import { ask, burst, startQuotaLeeway, usageOf, waitForConsumed, type QuotaErrorBody } from './quota.testkit';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

async function upstream(name: string): Promise<FakeUpstream> {
  const u = await startFakeUpstream({ format: 'anthropic', name });
  upstreams.push(u);
  return u;
}

const HOURLY_20 = [{ unit: 'requests' as const, window: 'hourly' as const, limit: 20 }];
const MODEL = 'claude-sonnet-4-5';

describe('quota pre-check through the real proxy', () => {
  it('QFAIR-1, QFAIR-2, QFAIR-5, QFAIR-3, QPIPE-2: a bursting hard key is held at its share of 10 with a 429 that says why and when; the other key keeps being served', async () => {
    const acct = await upstream('acct');
    const h = (leeway = await startQuotaLeeway({ connections: [anthropicConnection('acct', acct.url)] }, [
      {
        name: 'team',
        connection: 'acct',
        dimensions: HOURLY_20,
        allocations: [
          { key: 'alice', weight: 50, policy: 'hard' },
          { key: 'bob', weight: 50, policy: 'hard' },
        ],
      },
    ]));
    // Threshold 0.5 of 20 is 10: the first 10 pool requests are generous, and a lone burster reaches
    // exactly its share of 10 when the pool turns strict, so there is nothing left to borrow.
    const statuses = await burst(h, 'alice', MODEL, 10, 'team');
    expect(statuses).toEqual(Array(10).fill(200));

    const held = await ask(h, 'alice', MODEL);
    const body = (await held.json()) as QuotaErrorBody;
    expect(held.status).toBe(429);
    expect(body.error.type).toBe('rate_limit_error');
    expect(body.leeway.code).toBe('quota_exceeded');
    expect(body.leeway.details).toMatchObject({
      pool: 'team',
      key: 'alice',
      dimension: { unit: 'requests', window: 'hourly', limit: 20 },
      consumed: 10,
      fairShare: 10,
      mode: 'strict',
      reason: 'fair-share',
      policy: 'hard',
    });
    expect(body.error.message).toContain('team');
    expect(body.error.message).toContain('alice');
    expect(body.error.message).toContain('requests/hourly');
    const retryAfter = Number(held.headers.get('retry-after'));
    // Half-way through the hour with 10 in the current bucket: the share frees only as that bucket
    // slides out, so the wait is more than half an hour and at most the window.
    expect(retryAfter).toBeGreaterThan(1800);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(held.headers.get('x-should-retry')).toBe('true');
    expect(acct.requests).toHaveLength(10);

    const served = await ask(h, 'bob', MODEL);
    await served.text();
    expect(served.status).toBe(200);
    expect(served.headers.get('x-leeway-quota')).toBe('ok');
    await waitForConsumed(h, 'team', 'bob', 1);
    expect(acct.requests).toHaveLength(11);
  });

  it('QFAIR-6, QPIPE-7: a soft key over its share is demoted behind the combo’s connection outside its pool, never blocked', async () => {
    const a1 = await upstream('a1');
    const a2 = await upstream('a2');
    const h = (leeway = await startQuotaLeeway(
      {
        connections: [
          anthropicConnection('a1', a1.url, { priority: 1 }),
          anthropicConnection('a2', a2.url, { priority: 2 }),
        ],
        combos: [
          {
            name: 'main',
            targets: [
              { connection: 'a1', model: MODEL },
              { connection: 'a2', model: MODEL },
            ],
          },
        ],
      },
      [
        {
          // The pool is a1's account; a2 is another account the combo may fall back to.
          name: 'team',
          connection: 'a1',
          dimensions: HOURLY_20,
          allocations: [
            { key: 'alice', weight: 50, policy: 'soft' },
            { key: 'bob', weight: 50, policy: 'hard' },
          ],
        },
      ],
    ));
    expect(await burst(h, 'alice', 'main', 10, 'team')).toEqual(Array(10).fill(200));
    expect(a1.requests).toHaveLength(10);

    const demoted = await ask(h, 'alice', 'main');
    await demoted.text();
    expect(demoted.status).toBe(200);
    expect(demoted.headers.get('x-leeway-quota')).toBe('penalized');
    expect(demoted.headers.get('x-leeway-connection')).toBe('a2');
    // Bob, under his share, still goes to the first connection.
    const bob = await ask(h, 'bob', 'main');
    await bob.text();
    expect(bob.headers.get('x-leeway-connection')).toBe('a1');
    expect(bob.headers.get('x-leeway-quota')).toBe('ok');
  });

  it('QFAIR-6: with one connection a penalized soft key is still served, and the header says so', async () => {
    const acct = await upstream('acct');
    const h = (leeway = await startQuotaLeeway({ connections: [anthropicConnection('acct', acct.url)] }, [
      {
        name: 'solo',
        connection: 'acct',
        dimensions: HOURLY_20,
        allocations: [
          { key: 'alice', weight: 50, policy: 'soft' },
          { key: 'bob', weight: 50, policy: 'hard' },
        ],
      },
    ]));
    const statuses = await burst(h, 'alice', MODEL, 14, 'solo');
    expect(statuses).toEqual(Array(14).fill(200));
    const res = await ask(h, 'alice', MODEL);
    await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-quota')).toBe('penalized');
    const usage = await usageOf(h, 'solo');
    expect(usage.dimensions[0]?.mode).toBe('strict');
  });

  it('QFAIR-7, QFAIR-8: a burst key ignores shares until the pool is full, then everyone is held as global-saturated', async () => {
    const acct = await upstream('acct');
    const h = (leeway = await startQuotaLeeway({ connections: [anthropicConnection('acct', acct.url)] }, [
      {
        name: 'team',
        connection: 'acct',
        dimensions: HOURLY_20,
        allocations: [
          { key: 'alice', weight: 50, policy: 'burst' },
          { key: 'bob', weight: 50, policy: 'hard' },
        ],
      },
    ]));
    expect(await burst(h, 'alice', MODEL, 20, 'team')).toEqual(Array(20).fill(200));
    for (const key of ['alice', 'bob'] as const) {
      const res = await ask(h, key, MODEL);
      const body = (await res.json()) as QuotaErrorBody;
      expect(res.status).toBe(429);
      expect(body.leeway.details).toMatchObject({
        key,
        reason: 'global-saturated',
        consumed: key === 'alice' ? 20 : 0,
      });
      expect(body.leeway.details.excluded).toEqual([expect.objectContaining({ connection: 'acct', reason: 'quota' })]);
    }
    expect(acct.requests).toHaveLength(20);
  });

  it('QPIPE-1: a key no pool allocates is routed as before, without the quota header', async () => {
    const acct = await upstream('acct');
    const h = (leeway = await startQuotaLeeway({ connections: [anthropicConnection('acct', acct.url)] }, [
      {
        name: 'team',
        connection: 'acct',
        dimensions: [{ unit: 'requests', window: 'hourly', limit: 1 }],
        allocations: [{ key: 'alice', weight: 100, policy: 'hard' }],
      },
    ]));
    for (let i = 0; i < 3; i++) {
      const res = await ask(h, 'carol', MODEL);
      await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get('x-leeway-quota')).toBeNull();
    }
  });
});
