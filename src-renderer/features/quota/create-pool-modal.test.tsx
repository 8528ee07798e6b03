// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { CreatePoolModal } from './create-pool-modal';
import { fakeKey } from './quota-fixtures';

afterEach(cleanup);

const seed = {
  connections: [fakeConnection('max-1'), fakeConnection('max-2')],
  keys: [fakeKey('alice'), fakeKey('bob')],
};

const type = (el: HTMLElement, value: string): void => void fireEvent.change(el, { target: { value } });
const group = (name: string): HTMLElement => screen.getByRole('group', { name });
const errorOf = (el: HTMLElement): string | null => {
  const id = el.getAttribute('aria-describedby')?.split(' ')[0];
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
};

async function open() {
  let closed = 0;
  const view = await renderWithFake(<CreatePoolModal onClose={() => closed++} />, { seed });
  return { ...view, closed: () => closed };
}

function fillAllocation(index: number, key: string, weight: string, policy = 'hard'): void {
  const row = group(`Allocation ${index}`);
  type(within(row).getByLabelText('Key'), key);
  type(within(row).getByLabelText('Weight %'), weight);
  type(within(row).getByLabelText('Policy'), policy);
}

describe('create pool dialog', () => {
  it('QUI-3: creates a pool of two keys on a requests/hourly dimension, sent as the contract input', async () => {
    const { inputsOf, fake, closed } = await open();
    type(screen.getByLabelText('Name'), 'team');
    fireEvent.click(screen.getByLabelText('max-1'));
    const dim = group('Dimension 1');
    type(within(dim).getByLabelText('Unit'), 'requests');
    type(within(dim).getByLabelText('Window'), 'hourly');
    type(within(dim).getByLabelText('Limit'), '20');
    fillAllocation(1, 'alice', '50');
    fireEvent.click(screen.getByRole('button', { name: 'Add key' }));
    fillAllocation(2, 'bob', '50', 'soft');
    type(within(group('Allocation 2')).getByLabelText('Cap (optional)'), '200');
    type(within(group('Allocation 2')).getByLabelText('Cap unit'), 'requests');
    fireEvent.click(screen.getByRole('button', { name: 'Create pool' }));
    await flush();
    expect(inputsOf('quota.upsertPool')).toEqual([
      {
        name: 'team',
        connections: ['max-1'],
        dimensions: [{ unit: 'requests', window: 'hourly', limit: 20 }],
        allocations: [
          { key: 'alice', weight: 50, policy: 'hard', capValue: null, capUnit: null },
          { key: 'bob', weight: 50, policy: 'soft', capValue: 200, capUnit: 'requests' },
        ],
      },
    ]);
    expect(fake.state.quotaPools.map((p) => p.name)).toEqual(['team']);
    expect(closed()).toBe(1);
  });

  it('QUI-3: "use the connection’s plan" sends no dimensions', async () => {
    const { inputsOf } = await open();
    type(screen.getByLabelText('Name'), 'planned');
    fireEvent.click(screen.getByLabelText('max-2'));
    fireEvent.click(screen.getByLabelText('Use the connection’s plan'));
    expect(screen.queryByRole('group', { name: 'Dimension 1' })).toBeNull();
    fillAllocation(1, 'alice', '0');
    fireEvent.click(screen.getByRole('button', { name: 'Create pool' }));
    await flush();
    expect(inputsOf('quota.upsertPool')).toMatchObject([{ name: 'planned', connections: ['max-2'], dimensions: [] }]);
  });

  it('QUI-3: the shared schema’s refusals show at their fields and nothing is sent', async () => {
    const { inputsOf, closed } = await open();
    type(screen.getByLabelText('Name'), 'bad name!');
    type(within(group('Dimension 1')).getByLabelText('Limit'), '-5');
    fillAllocation(1, 'alice', '80');
    fireEvent.click(screen.getByRole('button', { name: 'Add key' }));
    fillAllocation(2, 'bob', '30');
    fireEvent.click(screen.getByRole('button', { name: 'Create pool' }));
    await flush();
    expect(inputsOf('quota.upsertPool')).toEqual([]);
    expect(closed()).toBe(0);
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(name)).toMatch(/letters, digits/);
    expect(document.activeElement).toBe(name);
    expect(screen.getByText('pick at least one connection')).toBeTruthy();
    const limit = within(group('Dimension 1')).getByLabelText('Limit');
    expect(errorOf(limit)).toBe('must be 0 (unknown) or more');
    expect(screen.getByText('weights add up to more than 100')).toBeTruthy();

    // Typing in a field clears only that field's error.
    type(name, 'team');
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('false');
    expect(errorOf(within(group('Dimension 1')).getByLabelText('Limit'))).toBe('must be 0 (unknown) or more');
  });

  it('QUI-3: a missing limit is asked for, and a key chosen twice is refused by the schema', async () => {
    const { inputsOf } = await open();
    type(screen.getByLabelText('Name'), 'team');
    fireEvent.click(screen.getByLabelText('max-1'));
    fireEvent.click(screen.getByRole('button', { name: 'Create pool' }));
    await flush();
    expect(errorOf(within(group('Dimension 1')).getByLabelText('Limit'))).toBe('enter a limit (0 = unknown)');
    expect(errorOf(within(group('Allocation 1')).getByLabelText('Key'))).toBe('is required');
    type(within(group('Dimension 1')).getByLabelText('Limit'), '20');
    fillAllocation(1, 'alice', '10');
    fireEvent.click(screen.getByRole('button', { name: 'Add key' }));
    fillAllocation(2, 'alice', '10');
    fireEvent.click(screen.getByRole('button', { name: 'Create pool' }));
    await flush();
    expect(inputsOf('quota.upsertPool')).toEqual([]);
    expect(screen.getByText('each key may appear once')).toBeTruthy();
  });
});
