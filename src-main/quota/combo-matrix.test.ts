import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';
import { ask, call, KEYS, startQuotaLeeway } from './quota.testkit';

/**
 * TEST-13: routing decisions through the real combo pipeline with a quota pool present — the
 * `qtSd/<pool>` system combo's DRR weights and saturation gating, and the public strategies unchanged.
 */
let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

const MODEL = 'claude-sonnet-4-5';
const HOURLY_1000 = [{ unit: 'requests' as const, window: 'hourly' as const, limit: 1000 }];

async function family(extraConfig: Record<string, unknown> = {}) {
  const a1 = await startFakeUpstream({ format: 'anthropic', name: 'a1' });
  const a2 = await startFakeUpstream({ format: 'anthropic', name: 'a2' });
  upstreams.push(a1, a2);
  const h = (leeway = await startQuotaLeeway(
    {
      connections: [
        // Accounts of one family serve the same models: `qtSd/fam` sends the first one to either.
        anthropicConnection('a1', a1.url, { priority: 1, models: [MODEL] }),
        anthropicConnection('a2', a2.url, { priority: 2, models: [MODEL] }),
      ],
      ...extraConfig,
    },
    [
      {
        name: 'fam',
        connections: ['a1', 'a2'],
        dimensions: HOURLY_1000,
        allocations: [
          { key: 'alice', weight: 50, policy: 'hard' },
          { key: 'bob', weight: 50, policy: 'hard' },
        ],
      },
    ],
  ));
  return { a1, a2, h };
}

async function servedBy(h: RunningLeeway, model: string, n: number, key: 'alice' | 'bob' = 'alice'): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await ask(h, key, model);
    await res.text();
    expect(res.status).toBe(200);
    out.push(res.headers.get('x-leeway-connection') ?? '?');
  }
  return out;
}

const count = (names: string[], name: string) => names.filter((n) => n === name).length;

describe('TEST-13 combo matrix', () => {
  it('ROUTE-10: a pool over two connections is offered as the system combo qtSd/<pool> in /v1/models', async () => {
    const { h } = await family();
    const res = await fetch(`${h.url}/v1/models`, {
      headers: { 'x-api-key': KEYS.alice, 'anthropic-version': '2023-06-01' },
    });
    const body = (await res.json()) as { data: { id: string }[] };
    expect(body.data.map((m) => m.id)).toContain('qtSd/fam');
    const combos = await call(h, 'combos.list', undefined);
    expect(combos.map((c) => c.name)).not.toContain('qtSd/fam');
  });

  it('ROUTE-11: DRR with weights 2:1 (the accounts’ plans) splits 30 requests through qtSd/<pool> about 2:1', async () => {
    const { h } = await family();
    for (const [connection, limit] of [
      ['a1', 2000],
      ['a2', 1000],
    ] as const) {
      const set = await h.core.router.call('quota.setPlan', {
        connection,
        dimensions: [{ unit: 'requests', window: 'hourly', limit }],
      });
      expect(set.ok).toBe(true);
    }
    const picks = await servedBy(h, 'qtSd/fam', 30);
    expect(count(picks, 'a1')).toBeGreaterThanOrEqual(18);
    expect(count(picks, 'a1')).toBeLessThanOrEqual(22);
    expect(count(picks, 'a1') + count(picks, 'a2')).toBe(30);
  });

  it('ROUTE-11: with equal weights qtSd/<pool> alternates between the accounts', async () => {
    const { h } = await family();
    const picks = await servedBy(h, 'qtSd/fam', 10);
    expect(count(picks, 'a1')).toBe(5);
    expect(count(picks, 'a2')).toBe(5);
  });

  it('ROUTE-11, QPIPE-6: an account reporting 100 % of its 5h window gets no new picks while the other has room', async () => {
    const { a1, a2, h } = await family();
    const util = (u: string) => ({ kind: 'ok' as const, headers: { 'anthropic-ratelimit-unified-5h-utilization': u } });
    a1.setDefault(util('1'));
    a2.setDefault(util('0.2'));
    const picks = await servedBy(h, 'qtSd/fam', 12);
    const firstA1 = picks.indexOf('a1');
    // a1 may be picked once (nothing was known of it yet); after its report it is gated.
    expect(count(picks, 'a1')).toBeLessThanOrEqual(1);
    expect(picks.slice(firstA1 + 1)).not.toContain('a1');
    expect(a2.requests.length).toBeGreaterThanOrEqual(11);
  });

  it('ROUTE-11, CONC-6: when every account reports a full window the gate fails open and both still serve', async () => {
    const { a1, a2, h } = await family();
    for (const u of [a1, a2])
      u.setDefault({ kind: 'ok', headers: { 'anthropic-ratelimit-unified-5h-utilization': '1' } });
    const picks = await servedBy(h, 'qtSd/fam', 6);
    expect(count(picks, 'a1')).toBeGreaterThan(0);
    expect(count(picks, 'a2')).toBeGreaterThan(0);
  });

  it('ROUTE-1: the public strategies route as before with a pool present — priority keeps the first, round-robin alternates', async () => {
    const { h } = await family({
      combos: [
        { name: 'prio', targets: ['a1', 'a2'], strategy: 'priority' },
        { name: 'rr', targets: ['a1', 'a2'], strategy: 'round-robin' },
      ],
    });
    expect(await servedBy(h, 'prio', 4)).toEqual(['a1', 'a1', 'a1', 'a1']);
    const rr = await servedBy(h, 'rr', 4);
    expect(count(rr, 'a1')).toBe(2);
    expect(rr[0]).not.toBe(rr[1]);
    expect(rr[1]).not.toBe(rr[2]);
  });
});
