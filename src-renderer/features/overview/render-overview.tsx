import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { methods, type MethodName } from '../../../src-shared/contract/methods';
import { createApiClient } from '../../api/api-client';
import { ApiProvider } from '../../api/api-context';
import { createFakeApi, type FakeApi } from '../../api/fake-api';
import type { FakeState } from '../../api/fake-handlers';
import { flush } from '../../api/render-with-fake';
import type { Transport } from '../../api/transport';
import { connectStores, createStores, type Stores } from '../../stores/create-stores';
import { StoresProvider } from '../../stores/stores-context';
import { createFakeOverviewHandlers } from './fake-overview-handlers';

export interface OverviewRender extends RenderResult {
  fake: FakeApi;
  stores: Stores;
  inputsOf(method: MethodName): unknown[];
}

/**
 * renderWithFake, with `overview.*` answered from the fake's own memory (its activity list, pools and
 * Claude statuses) whether or not the shared fake table has them yet; `fail` makes a method refuse.
 */
export async function renderOverview(
  ui: ReactElement,
  {
    seed = {},
    now = () => Date.now(),
    fail,
  }: { seed?: Partial<FakeState>; now?: () => number; fail?: Partial<Record<MethodName, string>> } = {},
): Promise<OverviewRender> {
  const fake = createFakeApi(seed, now);
  const overview = createFakeOverviewHandlers(fake.state, now);
  const calls: { method: MethodName; input: unknown }[] = [];
  const transport: Transport = {
    ...fake.transport,
    async call(method, input) {
      calls.push({ method, input });
      const refusal = fail?.[method];
      if (refusal !== undefined) return { ok: false, error: { code: 'internal_error', message: refusal } };
      if (method === 'overview.usage') return overview['overview.usage'](undefined);
      if (method === 'overview.series') {
        const parsed = methods['overview.series'].input.safeParse(input);
        if (!parsed.success) return { ok: false, error: { code: 'invalid_input', message: parsed.error.message } };
        return overview['overview.series'](parsed.data);
      }
      return fake.transport.call(method, input);
    },
  };
  const api = createApiClient(transport);
  const stores = createStores(api);
  connectStores(api, stores);
  const view = render(
    <ApiProvider api={api}>
      <StoresProvider stores={stores}>{ui}</StoresProvider>
    </ApiProvider>,
  );
  await flush();
  return { ...view, fake, stores, inputsOf: (m) => calls.filter((c) => c.method === m).map((c) => c.input) };
}
