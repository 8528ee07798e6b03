// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeApi } from '../../api/fake-api';
import { fakeConnection, flush, renderWithFake } from '../../api/render-with-fake';
import { ConnectionsTab } from './connections-tab';
import { withFakeRenames } from './fake-rename-handlers';

afterEach(cleanup);

const dialog = () => screen.getByRole('dialog');
const field = (label: string) => within(dialog()).getByLabelText<HTMLInputElement>(label);
const describedText = (el: HTMLElement): string =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');

async function renderTab() {
  const holder: { fake?: FakeApi } = {};
  const view = await renderWithFake(<ConnectionsTab />, {
    seed: {
      connections: [fakeConnection('work'), fakeConnection('home')],
      combos: [
        {
          id: 'c1',
          name: 'coding',
          targets: [{ connection: 'work', model: null }],
          strategy: 'priority',
          createdAt: 0,
          updatedAt: 0,
        },
      ],
    },
    wrap: withFakeRenames(holder),
  });
  holder.fake = view.fake;
  return view;
}

describe('connection editor: rename in place (issue 13 §8)', () => {
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
    expect(view.fake.state.connections.map((c) => [c.id, c.name])).toEqual([
      ['id-work', 'work-max'],
      ['id-home', 'home'],
    ]);
    expect(view.fake.state.combos[0]?.targets).toEqual([{ connection: 'work-max', model: null }]);
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
    expect(describedText(field('Name'))).toMatch(/already taken\. The other changes were saved\./);
    expect(view.fake.state.connections.map((c) => c.name)).toEqual(['work', 'home']);
  });
});
