// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeApi } from '../../api/fake-api';
import { fakeConnection, flush, renderWithFake } from '../../api/render-with-fake';
import { withFakeRenames } from '../connections/fake-rename-handlers';
import { CombosTab } from './combos-tab';

afterEach(cleanup);

const combo = (id: string, name: string) => ({
  id,
  name,
  targets: [{ connection: 'work', model: null }],
  strategy: 'priority' as const,
  createdAt: 0,
  updatedAt: 0,
});
const dialog = () => within(screen.getByRole('dialog'));
const nameField = () => dialog().getByLabelText<HTMLInputElement>('Name');

async function renderTab() {
  const holder: { fake?: FakeApi } = {};
  const view = await renderWithFake(<CombosTab />, {
    seed: { connections: [fakeConnection('work')], combos: [combo('c1', 'coding'), combo('c2', 'other')] },
    wrap: withFakeRenames(holder),
  });
  holder.fake = view.fake;
  return view;
}

describe('combo editor: rename in place (issue 13 §8)', () => {
  it('PROD-8 saves under the stored name, then renames; the row shows the new name', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Edit coding' }));
    fireEvent.change(nameField(), { target: { value: 'coding:fast' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Save changes' }));
    await flush();
    expect(view.inputsOf('combos.upsert')).toMatchObject([{ name: 'coding' }]);
    expect(view.inputsOf('combos.rename')).toEqual([{ from: 'coding', to: 'coding:fast' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(view.fake.state.combos.map((c) => [c.id, c.name])).toEqual([
      ['c1', 'coding:fast'],
      ['c2', 'other'],
    ]);
    expect(screen.getByRole('button', { name: 'Edit coding:fast' })).toBeTruthy();
  });

  it('PROD-8 a taken name stays in the editor as an error at Name', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Edit coding' }));
    fireEvent.change(nameField(), { target: { value: 'other' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Save changes' }));
    await flush();
    expect(nameField().getAttribute('aria-invalid')).toBe('true');
    expect(view.fake.state.combos.map((c) => c.name)).toEqual(['coding', 'other']);
  });
});
