// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HeldRequestView } from '../../../src-shared/domain/held';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { HeldRequestsPanel } from './held-requests-panel';

afterEach(cleanup);

const held = (id: string, extra: Partial<HeldRequestView> = {}): HeldRequestView => ({
  id,
  since: Date.now() - 12_000,
  keyName: 'laptop',
  model: 'claude-sonnet-4-5',
  session: 'sess-1',
  stream: true,
  waitsFor: 'cooldown',
  what: "max-2's cooldown to end at 14:03:10 UTC",
  until: Date.now() + 41_000,
  actions: ['cancel', 'go-now', 'release-lease'],
  ...extra,
});

describe('Waiting now (issue 24 §2)', () => {
  it('ISSUE-24: lists each held request with key, model, session, what it waits for, how long and until when', async () => {
    await renderWithFake(<HeldRequestsPanel />, {
      seed: {
        held: [
          held('h1'),
          held('h2', { waitsFor: 'queue', what: 'a free slot on glm', actions: ['cancel', 'go-now'], until: null }),
        ],
      },
    });
    expect(screen.getByRole('heading', { name: /Waiting now/ }).textContent).toContain('(2)');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('laptop');
    expect(rows[0]?.textContent).toContain("max-2's cooldown to end at 14:03:10 UTC");
    expect(rows[0]?.textContent).toMatch(/in 4\d s/);
    expect(rows[0]?.textContent).toMatch(/1[12] s/);
    expect(screen.getAllByRole('button', { name: /Release the lease/ })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: /Use any connection now/ })).toHaveLength(2);
  });

  it('ISSUE-24: an action goes to the core with the request id and the row leaves; a refusal is shown', async () => {
    const { fake, inputsOf } = await renderWithFake(<HeldRequestsPanel />, { seed: { held: [held('h1')] } });
    fireEvent.click(screen.getByRole('button', { name: /^Use any connection now/ }));
    await flush();
    expect(inputsOf('held.act')).toEqual([{ id: 'h1', action: 'go-now' }]);
    expect(screen.queryByRole('table')).toBeNull();
    act(() => fake.emit({ type: 'held.changed', payload: { held: [held('h3')] } }));
    await flush();
    expect(screen.getAllByRole('row')).toHaveLength(2);
    fake.state.held = [];
    fireEvent.click(screen.getByRole('button', { name: /^Cancel/ }));
    await flush();
    expect(screen.getByText(/not waiting any more/)).toBeTruthy();
  });

  it('ISSUE-24: shows nothing while nothing waits', async () => {
    const { fake } = await renderWithFake(<HeldRequestsPanel />);
    expect(screen.queryByRole('heading')).toBeNull();
    act(() => fake.emit({ type: 'held.changed', payload: { held: [held('h9')] } }));
    await flush();
    expect(screen.getByRole('heading', { name: /Waiting now/ })).toBeTruthy();
  });
});
