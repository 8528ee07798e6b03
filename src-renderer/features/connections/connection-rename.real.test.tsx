// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { connectionInput, seed } from '../../testing/seed-core.real';
import { ConnectionsTab } from './connections-tab';

afterEach(() => {
  cleanup();
  closeCores();
});

const dialog = () => screen.getByRole('dialog');
const field = (label: string) => within(dialog()).getByLabelText<HTMLInputElement>(label);
const describedText = (el: HTMLElement): string =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');

/** Two connections and a combo on `work`, in the real core. */
async function renderTab() {
  const core = await startCore();
  const work = await seed(core, 'connections.upsert', connectionInput('work'));
  const home = await seed(core, 'connections.upsert', connectionInput('home'));
  await seed(core, 'combos.upsert', { name: 'coding', targets: [{ connection: 'work', model: null }] });
  const view = await renderWithCore(<ConnectionsTab />, core);
  return { ...view, ids: [work.id, home.id] };
}

describe('connection editor: rename in place (issue 13 §8), against the real handlers', () => {
  it('PROD-5 a new name saves the other fields under the stored name, then renames; references follow', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Edit work' }));
    expect(describedText(field('Name'))).toMatch(/Renaming keeps its combos, routes, key allowlists/);
    fireEvent.change(field('Name'), { target: { value: 'work-max' } });
    fireEvent.change(field('Priority'), { target: { value: '7' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save changes' }));
    await flush();

    expect(view.inputsOf('connections.upsert')).toMatchObject([{ name: 'work', priority: 7 }]);
    expect(view.inputsOf('connections.rename')).toEqual([{ from: 'work', to: 'work-max' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    const stored = await seed(view.core, 'connections.list', undefined);
    expect(stored.map((c) => [c.id, c.name, c.priority])).toEqual(
      expect.arrayContaining([
        [view.ids[0], 'work-max', 7],
        [view.ids[1], 'home', 1],
      ]),
    );
    const combos = await seed(view.core, 'combos.list', undefined);
    expect(combos[0]?.targets).toEqual([{ connection: 'work-max', model: null }]);
    expect(screen.getByRole('button', { name: 'Edit work-max' })).toBeTruthy();
  });

  it('PROD-5 an unchanged name sends no rename', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Edit work' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save changes' }));
    await flush();
    expect(view.inputsOf('connections.upsert')).toHaveLength(1);
    expect(view.inputsOf('connections.rename')).toEqual([]);
  });

  it('PROD-5 a taken name is refused at the Name field; the editor stays open and says the rest was saved', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Edit work' }));
    fireEvent.change(field('Name'), { target: { value: 'home' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save changes' }));
    await flush();
    expect(view.inputsOf('connections.rename')).toEqual([{ from: 'work', to: 'home' }]);
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(describedText(field('Name'))).toMatch(
      /already the name of a connection or combo\. The other changes were saved\./,
    );
    const stored = await seed(view.core, 'connections.list', undefined);
    expect(stored.map((c) => c.name).sort()).toEqual(['home', 'work']);
  });
});
