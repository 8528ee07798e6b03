import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { MethodName } from '../../src-shared/contract/methods';
import { effectiveBaseUrl, type ConnectionView } from '../../src-shared/domain/connection';
import { connectStores, createStores, type Stores } from '../stores/create-stores';
import { StoresProvider } from '../stores/stores-context';
import { createApiClient } from './api-client';
import { ApiProvider } from './api-context';
import { createFakeApi, type FakeApi } from './fake-api';
import type { FakeState } from './fake-handlers';
import type { Transport } from './transport';

/** Lets pending promises (fake calls, store loads) settle without timers, so it works under fake timers too. */
export async function flush(): Promise<void> {
  await act(async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  });
}

export interface FakeRender extends RenderResult {
  fake: FakeApi;
  stores: Stores;
  /** Inputs of every call to `method` the UI made (answered by the fake or by `wrap`), oldest first. */
  inputsOf(method: MethodName): unknown[];
}

/**
 * For component tests: renders `ui` inside the providers, against the in-memory fake core, with the
 * stores connected and their first snapshots loaded. `wrap` lets a test make the core answer differently.
 */
export async function renderWithFake(
  ui: ReactElement,
  {
    seed = {},
    now,
    wrap,
  }: { seed?: Partial<FakeState>; now?: () => number; wrap?: (transport: Transport) => Transport } = {},
): Promise<FakeRender> {
  const fake = createFakeApi(seed, now);
  const inner = wrap ? wrap(fake.transport) : fake.transport;
  const calls: { method: MethodName; input: unknown }[] = [];
  const api = createApiClient({
    ...inner,
    call(method, input) {
      calls.push({ method, input });
      return inner.call(method, input);
    },
  });
  const stores = createStores(api);
  connectStores(api, stores);
  const view = render(
    <ApiProvider api={api}>
      <StoresProvider stores={stores}>{ui}</StoresProvider>
    </ApiProvider>,
  );
  await flush();
  return { ...view, fake, stores, inputsOf: (method) => calls.filter((c) => c.method === method).map((c) => c.input) };
}

/** A stored connection as the core would list it, for seeding the fake. */
export function fakeConnection(name: string, patch: Partial<ConnectionView> = {}): ConnectionView {
  const kind = patch.kind ?? 'anthropic';
  return {
    id: `id-${name}`,
    name,
    kind,
    baseUrl: null,
    effectiveBaseUrl: effectiveBaseUrl(kind, patch.baseUrl ?? null),
    models: [],
    modelAliases: {},
    priority: 1,
    enabled: true,
    maxConcurrent: null,
    disableCooling: false,
    providerSpecificData: {},
    secretHint: 'sk-ant-…9xQa',
    createdAt: 0,
    updatedAt: 0,
    ...patch,
  };
}
