import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchingQuotaStore } from './store/store-factory';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';
import { ask, startQuotaLeeway } from './quota.testkit';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

const POOL = {
  name: 'team',
  connection: 'acct',
  dimensions: [{ unit: 'requests' as const, window: 'hourly' as const, limit: 2 }],
  allocations: [
    { key: 'alice' as const, weight: 50, policy: 'hard' as const },
    { key: 'bob' as const, weight: 50, policy: 'hard' as const },
  ],
};

/** The real factory's store with some methods replaced (the rest, close included, stay real). */
function withStore(patch: Partial<Pick<SwitchingQuotaStore, 'readMany' | 'consume'>>) {
  return (real: SwitchingQuotaStore): SwitchingQuotaStore => ({
    get driver() {
      return real.driver;
    },
    peek: (...a) => real.peek(...a),
    consume: patch.consume ?? ((...a) => real.consume(...a)),
    readMany: patch.readMany ?? ((...a) => real.readMany(...a)),
    gc: (...a) => real.gc(...a),
    clear: (...a) => real.clear(...a),
    close: () => real.close(),
    status: () => real.status(),
    reconfigure: () => real.reconfigure(),
    ready: () => real.ready(),
    flush: () => real.flush(),
  });
}

async function start(patch: Parameters<typeof withStore>[0]) {
  const acct = await startFakeUpstream({ format: 'anthropic', name: 'acct' });
  upstreams.push(acct);
  leeway = await startQuotaLeeway({ connections: [anthropicConnection('acct', acct.url)] }, [POOL], {
    wrapQuotaStore: withStore(patch),
  });
  return { acct, h: leeway };
}

describe('quota fails open', () => {
  it('QPIPE-3, QDRV-7: a store whose reads and writes throw lets every request through and logs [quota:enforce] once per period', async () => {
    const { acct, h } = await start({
      readMany: () => Promise.reject(new Error('store is down')),
      consume: () => Promise.reject(new Error('store is down')),
    });
    // Far past the pool's limit of 2: nothing is counted and nothing is held.
    for (let i = 0; i < 6; i++) {
      const res = await ask(h, 'alice', 'claude-sonnet-4-5');
      await res.text();
      expect(res.status).toBe(200);
    }
    expect(acct.requests).toHaveLength(6);
    const enforce = h.logs.filter((l) => l.startsWith('[quota:enforce]'));
    expect(enforce.some((l) => l.includes('fail-open') && l.includes('store is down'))).toBe(true);
    // Rate-limited: six failing checks within seconds give one pre-check line (and one record line).
    expect(enforce.filter((l) => l.includes('fail-open'))).toHaveLength(1);
    await expect.poll(() => h.logs.some((l) => l.includes('recordConsumption failed (drift expected)'))).toBe(true);
  });

  it('QPIPE-5: a store whose consume never settles does not hold the response back', async () => {
    let calls = 0;
    const { acct, h } = await start({
      consume: () => {
        calls += 1;
        return new Promise<number>(() => undefined);
      },
    });
    for (const stream of [false, true]) {
      const res = await ask(h, 'alice', 'claude-sonnet-4-5', { stream });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text.length).toBeGreaterThan(0);
    }
    expect(acct.requests).toHaveLength(2);
    await expect.poll(() => calls).toBe(2);
  });
});
