import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../src-shared/contract/errors';
import { createApiClient, onEventType } from './api-client';
import { createFakeCore } from '../testing/fake-core';
import { createIpcTransport } from './ipc-transport';
import { pickTransport } from './pick-transport';
import type { LeewayBridge } from './bridge';

describe('ApiClient', () => {
  it('PROD-8 calls the bridge with method and input and passes the Result back', async () => {
    const bridge: LeewayBridge = { call: vi.fn(async () => ok({ revoked: true })), onEvent: vi.fn(() => () => {}) };
    const api = createApiClient(createIpcTransport(bridge));
    const result = await api.call('keys.revoke', { id: 'k1' });
    expect(result).toEqual({ ok: true, value: { revoked: true } });
    expect(bridge.call).toHaveBeenCalledWith('keys.revoke', { id: 'k1' });
  });

  it('PROD-8 turns a rejected bridge call or a malformed answer into an error Result', async () => {
    const broken = createApiClient(
      createIpcTransport({ call: () => Promise.reject(new Error('no handler')), onEvent: () => () => {} }),
    );
    expect(await broken.call('app.info')).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    const odd = createApiClient(
      createIpcTransport({ call: async () => ({ hello: 1 }) as never, onEvent: () => () => {} }),
    );
    expect(await odd.call('app.info')).toMatchObject({ ok: false, error: { code: 'internal_error' } });
  });

  it('PROD-8 picks the preload bridge when present and HTTP otherwise', async () => {
    const bridge: LeewayBridge = { call: vi.fn(async () => ok('bridged')), onEvent: () => () => {} };
    expect(await pickTransport({ leeway: bridge }).call('app.info', undefined)).toEqual(ok('bridged'));
    const fetchStub = vi.fn(async () => new Response('{"ok":true,"value":"http"}'));
    vi.stubGlobal('fetch', fetchStub);
    try {
      expect(await pickTransport({}).call('app.info', undefined)).toEqual(ok('http'));
      expect(fetchStub).toHaveBeenCalledOnce();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('PROD-8 types events by name through onEventType', () => {
    const fake = createFakeCore();
    const seen: boolean[] = [];
    const off = onEventType(fake.client, 'app.paused', ({ paused }) => seen.push(paused));
    fake.emit({ type: 'app.paused', payload: { paused: true } });
    fake.emit({ type: 'keys.changed', payload: { keys: [] } });
    off();
    fake.emit({ type: 'app.paused', payload: { paused: false } });
    expect(seen).toEqual([true]);
  });

  it('PROD-8 the fake core refuses what the contract refuses, as the router does, before any handler runs', async () => {
    const fake = createFakeCore();
    expect(await fake.client.call('app.setPaused', { paused: 'yes' } as never)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(fake.state.info.paused).toBe(false);
    const created = await fake.client.call('keys.create', { name: 'laptop' });
    expect(created.ok && created.value.plainKey.startsWith('lw-')).toBe(true);
  });
});
