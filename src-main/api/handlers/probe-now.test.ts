import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionTestResult } from '../../../src-shared/domain/connection-test';
import type { CooldownClear } from '../../../src-shared/domain/cooldown';
import type { ResilienceControl } from '../../resilience/resilience-control';
import { coolingRow, providerRow, snapshotOf, terminalRow, T0 } from '../../shell/shell-fixtures.testkit';
import { createRouter } from '../router';
import { createStubHandlers } from '../../testing/stub-handlers';
import { connectionDraft, startHandlersHarness, type HandlersHarness } from './handlers-harness.testkit';
import { probeHandlers } from './probe-now';

const harnesses: HandlersHarness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.close();
});

const PROVIDER = 'anthropic@https://api.anthropic.com';

function harness(answer: ConnectionTestResult | null) {
  const cleared: CooldownClear[] = [];
  const tested: string[] = [];
  const snapshot = snapshotOf({
    connections: [coolingRow('a', 60_000), terminalRow('z', 'banned')],
    providers: [providerRow(PROVIDER, { state: 'OPEN', retryAfterMs: 30_000 })],
  });
  const resilience: Pick<ResilienceControl, 'snapshot' | 'clear'> = {
    snapshot: () => snapshot,
    clear: (input) => (cleared.push(input), 1),
  };
  // Real connection rows (only `a` is stored, enabled); the resilience engine is a recording stub.
  const storage = startHandlersHarness();
  harnesses.push(storage);
  storage.storage.connections.upsert(connectionDraft('a'), T0);
  const handlers = probeHandlers({
    resilience,
    connections: storage.storage.connections,
    testConnection: (name) => (tested.push(name), Promise.resolve(answer)),
    now: () => T0 + 1_000,
  });
  const router = createRouter(createStubHandlers(handlers));
  return { router, cleared, tested };
}

describe('cooldowns.probe (issue 13 §8, "Probe now")', () => {
  it('COOL-2: asks the connection once and lifts its cooldown only when it answers', async () => {
    const ok: ConnectionTestResult = {
      ok: true,
      status: 200,
      latencyMs: 30,
      message: 'Connected in 30 ms',
      models: [],
    };
    const h = harness(ok);
    expect(await h.router.call('cooldowns.probe', { target: 'connection', connection: 'a' })).toEqual({
      ok: true,
      value: { connection: 'a', ok: true, lifted: true, message: 'a answered in 30 ms; lifted' },
    });
    expect(h.tested).toEqual(['a']);
    expect(h.cleared).toEqual([{ target: 'connection', connection: 'a' }]);
  });

  it('COOL-2: a probe the upstream refuses leaves the cooldown in place and says why', async () => {
    const h = harness({
      ok: false,
      status: 429,
      latencyMs: 5,
      message: 'Upstream answered 429: slow down',
      models: [],
    });
    expect(await h.router.call('cooldowns.probe', { target: 'connection', connection: 'a' })).toMatchObject({
      ok: true,
      value: { ok: false, lifted: false, message: 'a still fails: Upstream answered 429: slow down' },
    });
    expect(h.cleared).toEqual([]);
  });

  it('BRK-7: a provider breaker is probed through one of its connections and cleared on an answer', async () => {
    const h = harness({ ok: true, status: 200, latencyMs: 1, message: 'ok', models: [] });
    expect(await h.router.call('cooldowns.probe', { target: 'provider', provider: PROVIDER })).toMatchObject({
      ok: true,
      value: { connection: 'a', lifted: true },
    });
    expect(h.cleared).toEqual([{ target: 'provider', provider: PROVIDER }]);
  });

  it('COOL-10: a terminal connection is refused without a request; an unknown one is not_found', async () => {
    const h = harness(null);
    expect(await h.router.call('cooldowns.probe', { target: 'connection', connection: 'z' })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await h.router.call('cooldowns.probe', { target: 'connection', connection: 'ghost' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await h.router.call('cooldowns.probe', { target: 'all' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(h.tested).toEqual([]);
    expect(h.cleared).toEqual([]);
  });
});
