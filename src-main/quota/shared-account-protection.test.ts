import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';
import { ask, startQuotaLeeway } from './quota.testkit';

/*
 * CONC-1 end to end: two GLM-like subscription accounts that allow one request at a time each,
 * shared by two local keys through a quota-share combo (a pool needs two connections for its
 * `qtSd/` combo, ROUTE-10). The three layers each do their part on the same accounts:
 * max_concurrent (CONC-2), the quota-share semaphore (CONC-3..6), the combo cooldown wait (CONC-7..9).
 */

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;
afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

/** The most requests an upstream had open at once, sampled while `run` runs. */
async function peakOpen<T>(fakes: FakeUpstream[], run: () => Promise<T>): Promise<{ result: T; peaks: number[] }> {
  const peaks = fakes.map(() => 0);
  const sampler = setInterval(() => {
    fakes.forEach((f, i) => {
      const open = f.requests.filter((r) => r.response && !r.response.complete).length;
      peaks[i] = Math.max(peaks[i] ?? 0, open);
    });
  }, 2);
  try {
    return { result: await run(), peaks };
  } finally {
    clearInterval(sampler);
  }
}

const MODEL = 'glm-4.6';

describe('shared subscription account under a quota-share combo (CONC-1)', () => {
  it('CONC-1: two keys bursting at two accounts with max_concurrent 1 never run two requests at once on either, all are served, and a short 429 on both is waited out', async () => {
    const accounts = [
      await startFakeUpstream({ format: 'anthropic', name: 'glm-1' }),
      await startFakeUpstream({ format: 'anthropic', name: 'glm-2' }),
    ];
    upstreams.push(...accounts);
    for (const a of accounts) a.setDefault({ kind: 'slow-stream', intervalMs: 10, deltas: 10 });
    const h = (leeway = await startQuotaLeeway(
      {
        connections: accounts.map((a, i) =>
          anthropicConnection(`glm-${i + 1}`, a.url, { models: [MODEL], maxConcurrent: 1 }),
        ),
      },
      [
        {
          name: 'glm',
          connections: ['glm-1', 'glm-2'],
          dimensions: [{ unit: 'requests', window: 'hourly', limit: 1000 }],
          allocations: [
            { key: 'alice', weight: 50, policy: 'hard' },
            { key: 'bob', weight: 50, policy: 'hard' },
          ],
        },
      ],
    ));

    const keys = ['alice', 'bob', 'alice', 'bob', 'alice', 'bob'] as const;
    const { result, peaks } = await peakOpen(accounts, () =>
      Promise.all(
        keys.map(async (key) => {
          const res = await ask(h, key, 'qtSd/glm', { stream: true });
          const text = await res.text();
          return { status: res.status, done: text.includes('event: message_stop') };
        }),
      ),
    );
    expect(result).toEqual(Array(keys.length).fill({ status: 200, done: true }));
    expect(accounts.map((a) => a.requests.length).reduce((x, y) => x + y)).toBe(keys.length);
    // CONC-2/CONC-3: each account saw its share one request at a time.
    expect(peaks).toEqual([1, 1]);

    // CONC-7: both accounts say "busy for a second"; the request waits for them instead of failing.
    for (const a of accounts) a.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    const held = await ask(h, 'bob', 'qtSd/glm');
    await held.text();
    expect(held.status).toBe(200);
    expect(held.headers.get('x-leeway-held')).toBe('cooldown');
    expect(accounts.map((a) => a.requests.length).reduce((x, y) => x + y)).toBe(keys.length + 3);
  });
});
