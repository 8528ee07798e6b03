// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../../src-shared/contract/errors';
import type { Transport } from '../../api/transport';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import type { FakeState } from '../../testing/fake-state';
import { DiscoveredModels } from './discovered-models';

afterEach(() => cleanup());

const T0 = 1_700_000_000_000;

describe("the connection editor's discovered models (issue 13 §5)", () => {
  it('PROD-5: lists what the upstream listed, read-only, with the last failure and the list kept from before', async () => {
    const seed = {
      discovered: [
        {
          connection: 'glm',
          discoverable: true,
          models: [
            { id: 'glm-4.6', displayName: null },
            { id: 'glm-4.5-air', displayName: null },
          ],
          fetchedAt: T0,
          attemptedAt: T0 + 60_000,
          lastError: 'Upstream answered 503',
        },
      ],
    };
    await renderWithFake(<DiscoveredModels connection="glm" namesOwnModels={false} />, { seed });
    const list = screen.getByRole('list', { name: 'Discovered models' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['glm-4.6', 'glm-4.5-air']);
    expect(list.querySelector('input, textarea, button')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Last refresh failed: Upstream answered 503');
  });

  it('PROD-5: "Ask the upstream now" runs the Test action and shows the new list', async () => {
    const seed: Partial<FakeState> = {
      discovered: [
        { connection: 'glm', discoverable: true, models: [], fetchedAt: null, attemptedAt: null, lastError: null },
      ],
    };
    // The core's Test lists the models and keeps them: the fake's state changes as the core's would.
    const state: { current?: FakeState } = {};
    const testing = (inner: Transport): Transport => ({
      ...inner,
      call: async (method, input) => {
        if (method !== 'connections.test') return inner.call(method, input);
        if (!state.current) throw new Error('not rendered yet');
        state.current.discovered = [
          {
            connection: 'glm',
            discoverable: true,
            models: [{ id: 'glm-4.6', displayName: null }],
            fetchedAt: T0,
            attemptedAt: T0,
            lastError: null,
          },
        ];
        return ok({ ok: true, status: 200, latencyMs: 5, message: 'Connected in 5 ms', models: ['glm-4.6'] });
      },
    });
    const { inputsOf, fake } = await renderWithFake(<DiscoveredModels connection="glm" namesOwnModels={false} />, {
      seed,
      wrap: testing,
    });
    state.current = fake.state;
    expect(screen.getByText('Not asked yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ask the upstream now' }));
    await flush();
    expect(inputsOf('connections.test')).toEqual([{ name: 'glm' }]);
    expect(screen.getByRole('list', { name: 'Discovered models' }).textContent).toBe('glm-4.6');
  });

  it('a connection that names its own models (or is not saved yet) says why nothing is listed', async () => {
    const { inputsOf } = await renderWithFake(<DiscoveredModels connection="own" namesOwnModels />);
    expect(screen.getByText(/names its own models/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ask the upstream now' })).toBeNull();
    cleanup();
    await renderWithFake(<DiscoveredModels connection={null} namesOwnModels={false} />);
    expect(screen.getByText(/Once saved/)).toBeTruthy();
    expect(inputsOf('models.discovered')).toEqual([{ connection: 'own' }]);
  });
});
