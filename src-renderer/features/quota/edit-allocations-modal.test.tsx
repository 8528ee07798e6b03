// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { QuotaTab } from './quota-tab';
import { fakeKey, fakePool } from './quota-fixtures';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

const type = (el: HTMLElement, value: string): void => void fireEvent.change(el, { target: { value } });

async function openEditor() {
  const pool = fakePool('team', { saturationThreshold: 0.8 });
  const view = await renderWithFake(<QuotaTab />, {
    seed: {
      connections: [fakeConnection('max-1')],
      keys: [fakeKey('alice'), fakeKey('bob'), fakeKey('carol')],
      quotaPools: [pool],
    },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Edit allocations' }));
  return { ...view, dialog: screen.getByRole('dialog', { name: 'Allocations of team' }) };
}

describe('edit allocations dialog', () => {
  it('QUI-8: starts from the stored weights and policies, and saves them with quota.upsertPool under the same name', async () => {
    const { dialog, inputsOf } = await openEditor();
    const alice = within(dialog).getByRole('group', { name: 'Allocation 1' });
    expect((within(alice).getByLabelText('Weight %') as HTMLInputElement).value).toBe('50');
    type(within(alice).getByLabelText('Weight %'), '70');
    const bob = within(dialog).getByRole('group', { name: 'Allocation 2' });
    type(within(bob).getByLabelText('Weight %'), '30');
    type(within(bob).getByLabelText('Policy'), 'burst');
    type(within(bob).getByLabelText('Cap (optional)'), '5');
    type(within(bob).getByLabelText('Cap unit'), 'requests');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save allocations' }));
    await flush();
    expect(inputsOf('quota.upsertPool')).toEqual([
      {
        name: 'team',
        connections: ['max-1'],
        dimensions: [{ unit: 'requests', window: 'hourly', limit: 20 }],
        allocations: [
          { key: 'alice', weight: 70, policy: 'hard', capValue: null, capUnit: null },
          { key: 'bob', weight: 30, policy: 'burst', capValue: 5, capUnit: 'requests' },
        ],
        saturationThreshold: 0.8,
      },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    // The card shows the saved pool at once, without waiting for the next poll.
    expect(within(screen.getByRole('article', { name: 'team' })).getByText('2 allocations')).toBeTruthy();
  });

  it('QUI-8: adds a key, and refuses a cap without its unit at the field', async () => {
    const { dialog, inputsOf } = await openEditor();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add key' }));
    const carol = within(dialog).getByRole('group', { name: 'Allocation 3' });
    type(within(carol).getByLabelText('Key'), 'carol');
    type(within(carol).getByLabelText('Cap (optional)'), '3');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save allocations' }));
    await flush();
    expect(inputsOf('quota.upsertPool')).toEqual([]);
    expect(within(carol).getByText('capValue and capUnit go together')).toBeTruthy();
    type(within(carol).getByLabelText('Cap unit'), 'requests');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save allocations' }));
    await flush();
    expect(within(screen.getByRole('article', { name: 'team' })).getByText('3 allocations')).toBeTruthy();
  });
});
