// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionPinView } from '../../../src-shared/domain/affinity';
import type { LeaseView } from '../../../src-shared/domain/lease';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { SessionsTab } from './sessions-tab';

afterEach(cleanup);

const NOW = Date.now();
const pin = (session: string, connection: string): SessionPinView => ({
  keyName: 'laptop',
  session,
  target: 'main',
  connection,
  createdAt: NOW,
  lastServedAt: NOW,
  expiresAt: NOW + 30 * 60_000,
});
const lease: LeaseView = {
  ownerHashPrefix: '9f86d081',
  keyName: 'agent',
  connection: 'max-2',
  generation: 3,
  state: 'active',
  acquiredAt: NOW,
  renewedAt: NOW,
  expiresAt: NOW + 10 * 60_000,
  endedAt: null,
  endReason: null,
};

describe('sessions tab', () => {
  it('AFF-4: lists active pins with session, key, target, connection and expiry, and clears one', async () => {
    const { inputsOf } = await renderWithFake(<SessionsTab />, {
      seed: { pins: [pin('s-1', 'max-1'), pin('s-2', 'max-2')] },
    });
    const table = screen.getByRole('table', { name: 'Session pins' });
    const row = within(table).getByText('s-1').closest('tr');
    if (!row) throw new Error('no row');
    expect([...row.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent)).toEqual([
      's-1',
      'laptop',
      'main',
      'max-1',
      'in 30 min',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Clear pin of session s-1' }));
    await flush();
    expect(inputsOf('sessions.clear')).toEqual([{ target: 'pin', keyName: 'laptop', session: 's-1', scope: 'main' }]);
    expect(within(screen.getByRole('table', { name: 'Session pins' })).queryByText('s-1')).toBeNull();
  });

  it("AFF-4: clears a connection's pins, and all of them after confirmation", async () => {
    const { inputsOf } = await renderWithFake(<SessionsTab />, {
      seed: { pins: [pin('s-1', 'max-1'), pin('s-2', 'max-2'), pin('s-3', 'max-2')] },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Clear pins on max-2' }));
    await flush();
    expect(inputsOf('sessions.clear')).toEqual([{ target: 'connection', connection: 'max-2' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Clear all pins' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Clear every session pin?' })).getByRole('button', {
        name: 'Clear all pins',
      }),
    );
    await flush();
    expect(inputsOf('sessions.clear').at(-1)).toEqual({ target: 'all' });
    expect(screen.getByText('No active session pins')).toBeTruthy();
  });

  it('LEASE-7: lists active leases with key, connection, generation, expiry and only a hash prefix; ends one', async () => {
    const { inputsOf } = await renderWithFake(<SessionsTab />, { seed: { leases: [lease] } });
    const row = within(screen.getByRole('table', { name: 'Exclusive leases' }))
      .getByText('max-2')
      .closest('tr');
    if (!row) throw new Error('no row');
    expect([...row.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent)).toEqual([
      'max-2',
      'agent',
      '9f86d081…',
      '3',
      'in 10 min',
    ]);
    fireEvent.click(within(row).getByRole('button', { name: 'End lease' }));
    fireEvent.click(within(row).getByRole('button', { name: 'End lease' }));
    await flush();
    expect(inputsOf('leases.clear')).toEqual([{ target: 'connection', connection: 'max-2' }]);
    expect(screen.getByText(/No active leases/)).toBeTruthy();
  });

  it('AFF-4: a sessions.changed event replaces both lists', async () => {
    const { fake } = await renderWithFake(<SessionsTab />);
    expect(screen.getByText('No active session pins')).toBeTruthy();
    fake.emit({ type: 'sessions.changed', payload: { pins: [pin('pushed', 'max-1')], leases: [lease] } });
    await flush();
    expect(screen.getByText('pushed')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Exclusive leases' })).toBeTruthy();
  });
});
