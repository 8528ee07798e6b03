import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../src-shared/domain/connection';
import { createFakeApi } from '../api/fake-api';
import { FAKE_INFO } from '../api/fake-handlers';
import { connectStores, createStores } from './create-stores';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const connection = (name: string): ConnectionView => ({
  id: name,
  name,
  kind: 'openai',
  baseUrl: null,
  effectiveBaseUrl: 'https://api.openai.com/v1',
  models: ['gpt-4.1'],
  modelAliases: {},
  priority: 1,
  enabled: true,
  maxConcurrent: null,
  disableCooling: false,
  providerSpecificData: {},
  secretHint: 'sk-…abcd',
  createdAt: 0,
  updatedAt: 0,
});

describe('domain stores', () => {
  it('PROD-8 load snapshots, then follow events', async () => {
    const fake = createFakeApi({ connections: [connection('a')] });
    const stores = createStores(fake.client);
    const disconnect = connectStores(fake.client, stores);
    await settle();

    expect(stores.app.getState()).toMatchObject({ status: 'ready', info: FAKE_INFO });
    expect(stores.connections.getState().items.map((c) => c.name)).toEqual(['a']);

    fake.emit({ type: 'connections.changed', payload: { connections: [connection('a'), connection('b')] } });
    fake.emit({ type: 'app.paused', payload: { paused: true } });
    expect(stores.connections.getState().items.map((c) => c.name)).toEqual(['a', 'b']);
    expect(stores.app.getState().info?.paused).toBe(true);

    disconnect();
    fake.emit({ type: 'connections.changed', payload: { connections: [] } });
    expect(stores.connections.getState().items).toHaveLength(2);
  });

  it('PROD-8 drops a snapshot that an event overtook', async () => {
    const fake = createFakeApi({ connections: [connection('old')] });
    const stores = createStores(fake.client);
    connectStores(fake.client, stores);
    // The snapshot call is in flight; an event with newer data lands before it answers.
    fake.emit({ type: 'connections.changed', payload: { connections: [connection('new')] } });
    await settle();
    expect(stores.connections.getState().items.map((c) => c.name)).toEqual(['new']);
  });

  it('PROD-8 leaves the activity log to the Activity tab: no activity.list on start or after a gap', async () => {
    const fake = createFakeApi();
    fake.recordRequest({});
    connectStores(fake.client, createStores(fake.client));
    await settle();
    fake.reconnect();
    await settle();
    expect(fake.calls.some((c) => c.method === 'app.info')).toBe(true);
    expect(fake.calls.filter((c) => c.method === 'activity.list')).toEqual([]);
  });

  it('PROD-12 keeps a created plain key in memory for one display and lists the key at once', async () => {
    const fake = createFakeApi();
    const stores = createStores(fake.client);
    await stores.keys.getState().load();
    const result = await stores.keys.getState().create('laptop');
    expect(result.ok).toBe(true);
    expect(stores.keys.getState().items.map((k) => k.name)).toEqual(['laptop']);
    expect(stores.keys.getState().lastCreated?.plainKey).toMatch(/^lw-/);
    stores.keys.getState().dismissCreated();
    expect(stores.keys.getState().lastCreated).toBeNull();
  });

  it('PROD-8 reports a failed snapshot as an error state and recovers on reconnect', async () => {
    const fake = createFakeApi();
    const stores = createStores(fake.client);
    let failing = true;
    const realCall = fake.transport.call;
    fake.transport.call = async (method, input) =>
      failing && method === 'combos.list'
        ? { ok: false, error: { code: 'internal_error', message: 'db locked' } }
        : realCall(method, input);
    connectStores(fake.client, stores);
    await settle();
    expect(stores.combos.getState()).toMatchObject({ status: 'error', error: { message: 'db locked' } });
    failing = false;
    fake.reconnect();
    await settle();
    expect(stores.combos.getState()).toMatchObject({ status: 'ready', error: null });
  });
});
