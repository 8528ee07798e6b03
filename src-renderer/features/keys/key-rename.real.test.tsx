// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { seed } from '../../testing/seed-core.real';
import { KeysTab } from './keys-tab';

afterEach(() => {
  cleanup();
  closeCores();
});

/** Two keys in the real core. */
async function renderTab() {
  const core = await startCore();
  const laptop = await seed(core, 'keys.create', { name: 'laptop' });
  await seed(core, 'keys.create', { name: 'desktop' });
  const view = await renderWithCore(<KeysTab />, core);
  return { ...view, laptop: laptop.key };
}

describe('keys tab: rename in place (issue 13 §8), against the real handlers', () => {
  it('PROD-12 renames a key by id; the row shows the new name and the key itself is untouched', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Rename laptop' }));
    const input = screen.getByLabelText<HTMLInputElement>('New name for laptop');
    expect(input.value).toBe('laptop');
    fireEvent.change(input, { target: { value: 'work-laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await flush();
    expect(view.inputsOf('keys.rename')).toEqual([{ id: view.laptop.id, name: 'work-laptop' }]);
    expect(screen.getByText('work-laptop')).toBeTruthy();
    expect(screen.queryByLabelText('New name for laptop')).toBeNull();
    const keys = await seed(view.core, 'keys.list', undefined);
    expect(keys.find((k) => k.id === view.laptop.id)).toMatchObject({
      name: 'work-laptop',
      prefix: view.laptop.prefix,
    });
  });

  it('PROD-12 a taken name keeps the editor open with the core’s message; Escape cancels', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Rename laptop' }));
    const input = screen.getByLabelText<HTMLInputElement>('New name for laptop');
    fireEvent.change(input, { target: { value: 'desktop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await flush();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toMatch(/already exists/);
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByLabelText('New name for laptop')).toBeNull();
    const keys = await seed(view.core, 'keys.list', undefined);
    expect(keys.map((k) => k.name).sort()).toEqual(['desktop', 'laptop']);
  });

  it('PROD-12 saving the same name sends nothing', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Rename desktop' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await flush();
    expect(view.inputsOf('keys.rename')).toEqual([]);
  });
});
