import { afterEach, describe, expect, it, vi } from 'vitest';
import { methods } from '../../src-shared/contract/methods';
import { createFakeApi } from '../api/fake-api';
import { createApiClient } from '../api/api-client';
import type { Transport } from '../api/transport';
import { createFakeOverviewHandlers } from '../features/overview/fake-overview-handlers';
import { createOverviewStore, LIVE_REFRESH_MS } from './overview-store';

afterEach(() => vi.useRealTimers());

/** The fake core, with `overview.*` answered from its memory; `hold` delays the next series answer. */
function setUp() {
  const fake = createFakeApi({}, () => Date.now());
  const overview = createFakeOverviewHandlers(fake.state, () => Date.now());
  const held: Array<() => void> = [];
  let hold = false;
  const transport: Transport = {
    ...fake.transport,
    async call(method, input) {
      if (method === 'overview.usage') return overview['overview.usage'](undefined);
      if (method !== 'overview.series') return fake.transport.call(method, input);
      const parsed = methods['overview.series'].input.parse(input);
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      return overview['overview.series'](parsed);
    },
  };
  const store = createOverviewStore(createApiClient(transport));
  return { fake, store, held, setHold: (v: boolean) => void (hold = v) };
}

describe('overview store', () => {
  it('drops a late answer for a range that is no longer picked', async () => {
    const { store, held, setHold } = setUp();
    setHold(true);
    const first = store.getState().load();
    setHold(false);
    await store.getState().setRange('week');
    expect(store.getState().series?.range).toBe('week');
    held.shift()?.();
    await first;
    expect(store.getState().series?.range).toBe('week');
    expect(store.getState().range).toBe('week');
  });

  it('a live request refreshes at once when the last load is older than the throttle, later otherwise', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { fake, store } = setUp();
    await store.getState().load();
    fake.recordRequest({ ts: Date.now() });
    store.getState().noteRequest();
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS.hour - 1);
    expect(store.getState().series?.summary.requests).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState().series?.summary.requests).toBe(1);
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS.hour);
    fake.recordRequest({ ts: Date.now() });
    store.getState().noteRequest();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().series?.summary.requests).toBe(2);
  });

  it('dispose() cancels a pending refresh', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { store } = setUp();
    await store.getState().load();
    const before = store.getState().series;
    store.getState().noteRequest();
    store.getState().dispose();
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS.hour * 2);
    expect(store.getState().series).toBe(before);
  });
});
