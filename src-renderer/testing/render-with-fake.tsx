import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { MethodName } from '../../src-shared/contract/methods';
import { createApiClient } from '../api/api-client';
import type { Transport } from '../api/transport';
import { DashboardProvider } from '../dashboard-provider';
import { createResourceCache, type ResourceCache } from '../resources/resource-cache';
import { createFakeCore, type FakeCore } from './fake-core';
import type { FakeState } from './fake-state';

/** Lets pending promises (calls, re-reads) settle without timers, so it works under fake timers too. */
export async function flush(): Promise<void> {
  await act(async () => {
    for (let i = 0; i < 40; i++) await Promise.resolve();
  });
}

export interface Rendered extends RenderResult {
  cache: ResourceCache;
  /** Inputs of every call to `method` the UI made, oldest first. */
  inputsOf(method: MethodName): unknown[];
}

/** Renders `ui` inside the dashboard's providers over `transport`, recording every call, and lets the first reads settle. */
export async function renderOver(ui: ReactElement, transport: Transport): Promise<Rendered> {
  const calls: { method: MethodName; input: unknown }[] = [];
  const cache = createResourceCache(
    createApiClient({
      ...transport,
      call(method, input) {
        calls.push({ method, input });
        return transport.call(method, input);
      },
    }),
  );
  const view = render(<DashboardProvider cache={cache}>{ui}</DashboardProvider>);
  await flush();
  return { ...view, cache, inputsOf: (method) => calls.filter((c) => c.method === method).map((c) => c.input) };
}

export interface FakeRender extends Rendered {
  fake: FakeCore;
}

/**
 * For component tests: renders `ui` against the fake core (canned answers, see fake-reads/-writes)
 * with its first reads settled. `wrap` lets a test make the core answer differently.
 */
export async function renderWithFake(
  ui: ReactElement,
  {
    seed = {},
    now,
    wrap,
  }: { seed?: Partial<FakeState>; now?: () => number; wrap?: (transport: Transport) => Transport } = {},
): Promise<FakeRender> {
  const fake = createFakeCore(seed, now);
  const view = await renderOver(ui, wrap ? wrap(fake.transport) : fake.transport);
  return { ...view, fake };
}
