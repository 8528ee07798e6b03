// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { SetupTab } from '../setup/setup-tab';
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

  it('PROD-12 keeps a created plain key in this page for one display, lists the key at once, and the Setup tab uses it', async () => {
    await renderWithFake(
      <>
        <KeysTab />
        <SetupTab />
      </>,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await flush();
    const notice = screen.getByText(/Copy it now/).closest('[role="status"]');
    if (!(notice instanceof HTMLElement)) throw new Error('no notice');
    const plain = within(notice).getByText(/^lw-/).textContent ?? '';
    expect(within(screen.getByRole('table')).getByText('laptop')).toBeTruthy();
    expect(screen.getByText(/you just created/).textContent).toContain('laptop');
    expect(document.body.textContent).toContain(`export ANTHROPIC_AUTH_TOKEN=${plain}`);
    fireEvent.click(within(notice).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(/Copy it now/)).toBeNull();
  });
});
