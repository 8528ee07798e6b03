// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeConnection, flush, renderWithFake } from '../../api/render-with-fake';
import { KeysTab } from './keys-tab';

afterEach(cleanup);

const connections = [fakeConnection('max-1'), fakeConnection('max-2')];

describe('keys tab', () => {
  it('LEASE-3: creates a lease key with its allowed connections and lists scope and connections', async () => {
    const { inputsOf } = await renderWithFake(<KeysTab />, { seed: { connections } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'agent' } });
    fireEvent.click(screen.getByLabelText(/Exclusive leases/));
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await flush();
    // LEASE-3: not sent without an explicit connection list.
    expect(inputsOf('keys.create')).toEqual([]);
    expect(screen.getByRole('alert').textContent).toMatch(/needs at least one allowed connection/);

    fireEvent.click(screen.getByLabelText('max-2'));
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await flush();
    expect(inputsOf('keys.create')).toEqual([
      { name: 'agent', scopes: ['lease:exclusive'], allowedConnections: ['max-2'] },
    ]);
    const row = within(screen.getByRole('table')).getByText('agent').closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByText('lease:exclusive')).toBeTruthy();
    expect(within(row).getByText('max-2')).toBeTruthy();
  });

  it('LEASE-3: a plain key has no scopes and may use every connection', async () => {
    const { inputsOf } = await renderWithFake(<KeysTab />, { seed: { connections } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await flush();
    expect(inputsOf('keys.create')).toEqual([{ name: 'laptop', scopes: [], allowedConnections: [] }]);
    const row = within(screen.getByRole('table')).getByText('laptop').closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByText('none')).toBeTruthy();
    expect(within(row).getByText('all')).toBeTruthy();
  });
});
