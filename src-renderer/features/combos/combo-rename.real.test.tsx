// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { connectionInput, seed } from '../../testing/seed-core.real';
import { CombosTab } from './combos-tab';

afterEach(() => {
  cleanup();
  closeCores();
});

const dialog = () => within(screen.getByRole('dialog'));
const nameField = () => dialog().getByLabelText<HTMLInputElement>('Name');

/** One connection, two combos on it, and a route to `coding`, in the real core. */
async function renderTab() {
  const core = await startCore();
  await seed(core, 'connections.upsert', connectionInput('work'));
  const coding = await seed(core, 'combos.upsert', { name: 'coding', targets: [{ connection: 'work', model: null }] });
  const other = await seed(core, 'combos.upsert', { name: 'other', targets: [{ connection: 'work', model: null }] });
  await seed(core, 'routes.replace', { routes: [{ match: '*', to: 'coding' }] });
  const view = await renderWithCore(<CombosTab />, core);
  return { ...view, ids: [coding.id, other.id] };
}

describe('combo editor: rename in place (issue 13 §8), against the real handlers', () => {
  it('PROD-8 saves under the stored name, then renames; the row shows the new name and the route follows', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Edit coding' }));
    fireEvent.change(nameField(), { target: { value: 'coding:fast' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Save changes' }));
    await flush();
    expect(view.inputsOf('combos.upsert')).toMatchObject([{ name: 'coding' }]);
    expect(view.inputsOf('combos.rename')).toEqual([{ from: 'coding', to: 'coding:fast' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    const combos = await seed(view.core, 'combos.list', undefined);
    expect(combos.map((c) => [c.id, c.name])).toEqual(
      expect.arrayContaining([
        [view.ids[0], 'coding:fast'],
        [view.ids[1], 'other'],
      ]),
    );
    expect(await seed(view.core, 'routes.list', undefined)).toEqual([{ match: '*', to: 'coding:fast' }]);
    expect(screen.getByRole('button', { name: 'Edit coding:fast' })).toBeTruthy();
  });

  it('PROD-8 a taken name stays in the editor as an error at Name', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Edit coding' }));
    fireEvent.change(nameField(), { target: { value: 'other' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Save changes' }));
    await flush();
    expect(nameField().getAttribute('aria-invalid')).toBe('true');
    const combos = await seed(view.core, 'combos.list', undefined);
    expect(combos.map((c) => c.name).sort()).toEqual(['coding', 'other']);
  });
});
