import { describe, expect, it } from 'vitest';
import type { ClaudeConnectionStatus } from '../../src-shared/domain/claude';
import { createFakeApi } from '../api/fake-api';
import { claudeStatusOf } from './claude-store';
import { connectStores, createStores } from './create-stores';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const status = (connectionId: string, utilization: number): ClaudeConnectionStatus => ({
  connectionId,
  usage: { fiveHour: { utilization, resetsAtSeconds: 1_700_001_000 }, windows: {}, observedAt: 1_700_000_000_000 },
  lane: { kind: 'idle' },
  lastReset: null,
  lastVia: null,
});

describe('claude store', () => {
  it('PROD-8 PROD-5 loads claude.status, then each claude.changed replaces it; a late snapshot is dropped', async () => {
    const fake = createFakeApi({ claude: [status('a', 0.1)] });
    const stores = createStores(fake.client);
    connectStores(fake.client, stores);
    await settle();
    expect(stores.claude.getState()).toMatchObject({ status: 'ready' });
    expect(claudeStatusOf(stores.claude.getState().items, 'a')?.usage?.fiveHour?.utilization).toBe(0.1);

    fake.emit({ type: 'claude.changed', payload: { status: [status('a', 0.5), status('b', 0.2)] } });
    expect(stores.claude.getState().items.map((s) => s.connectionId)).toEqual(['a', 'b']);
    expect(claudeStatusOf(stores.claude.getState().items, 'missing')).toBeUndefined();

    // A reload in flight when an event lands must not overwrite the newer event.
    const reload = stores.claude.getState().load();
    fake.emit({ type: 'claude.changed', payload: { status: [status('a', 0.9)] } });
    await reload;
    expect(stores.claude.getState().items).toEqual([status('a', 0.9)]);
  });
});
