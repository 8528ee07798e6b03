import { afterEach, describe, expect, it } from 'vitest';
import { ask as askWithKey, burst, startQuotaLeeway } from '../../quota/quota.testkit';
import { startFakeUpstream, type FakeUpstream } from '../../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../../testing/start-leeway';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

const MODEL = 'claude-sonnet-4-5';

async function twoAccounts() {
  const a1 = await startFakeUpstream({ format: 'anthropic', name: 'a1' });
  const a2 = await startFakeUpstream({ format: 'anthropic', name: 'a2' });
  upstreams.push(a1, a2);
  return {
    connections: [
      anthropicConnection('a1', a1.url, { priority: 1 }),
      anthropicConnection('a2', a2.url, { priority: 2 }),
    ],
    targets: [
      { connection: 'a1', model: MODEL },
      { connection: 'a2', model: MODEL },
    ],
  };
}

// Wired outside this folder: core.ts passes the setting to createRoundRobinStore, and
// handle-model-request.ts calls rescorePenalized after the quota gate.
describe('combo strategies through the proxy', () => {
  it('ROUTE-1: stickyRoundRobinLimit 2 keeps each connection for two requests in a row, read without a restart', async () => {
    const { connections, targets } = await twoAccounts();
    const h = (leeway = await startLeeway({
      connections,
      combos: [{ name: 'main', strategy: 'round-robin', targets }],
    }));
    const served = async () => {
      const res = await fetch(`${h.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'main', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
      });
      await res.text();
      return res.headers.get('x-leeway-connection');
    };
    expect([await served(), await served(), await served()]).toEqual(['a1', 'a2', 'a1']);
    expect((await h.core.router.call('settings.update', { stickyRoundRobinLimit: 2 })).ok).toBe(true);
    expect((await h.core.router.call('settings.update', { stickyRoundRobinLimit: 101 })).ok).toBe(false);
    // a1's run (1 pick) may now grow to 2; then a2 twice; then a1.
    const next = [await served(), await served(), await served(), await served()];
    expect(next).toEqual(['a1', 'a2', 'a2', 'a1']);
  });

  it('QPIPE-7: an auto combo keeps a penalised soft key on its healthy account (score × 0.7) instead of demoting it behind a2', async () => {
    const { connections, targets } = await twoAccounts();
    const h = (leeway = await startQuotaLeeway({ connections, combos: [{ name: 'main', strategy: 'auto', targets }] }, [
      {
        name: 'team',
        connection: 'a1',
        dimensions: [{ unit: 'requests', window: 'hourly', limit: 20 }],
        allocations: [
          { key: 'alice', weight: 50, policy: 'soft' },
          { key: 'bob', weight: 50, policy: 'hard' },
        ],
      },
    ]));
    // Ten served answers make a1 the better-known account; the pool then turns strict and penalises alice.
    expect(await burst(h, 'alice', 'main', 10, 'team')).toEqual(Array(10).fill(200));
    const res = await askWithKey(h, 'alice', 'main');
    await res.text();
    expect(res.headers.get('x-leeway-quota')).toBe('penalized');
    // a1: (0.4 × 11/12 + 0.3 × 0.5 + 0.2 × ~1 + 0.1 × 0.36) × 0.7 ≈ 0.53 beats the unknown a2 ≈ 0.49.
    expect(res.headers.get('x-leeway-connection')).toBe('a1');
  });
});
