// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import type { FakeApi } from '../../api/fake-api';
import { flush, renderWithFake } from '../../api/render-with-fake';
import { withFakeRenames } from '../connections/fake-rename-handlers';
import { KeysTab } from './keys-tab';

afterEach(cleanup);

const key = (id: string, name: string): LocalKeyView => ({
  id,
  name,
  prefix: 'lw-abcd',
  createdAt: 0,
  lastUsedAt: null,
  revokedAt: null,
  scopes: [],
  allowedConnections: [],
});

async function renderTab() {
  const holder: { fake?: FakeApi } = {};
  const view = await renderWithFake(<KeysTab />, {
    seed: { keys: [key('k1', 'laptop'), key('k2', 'desktop')] },
    wrap: withFakeRenames(holder),
  });
  holder.fake = view.fake;
  return view;
}

describe('keys tab: rename in place (issue 13 §8)', () => {
  it('PROD-12 renames a key by id; the row shows the new name and the key itself is untouched', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Rename laptop' }));
    const input = screen.getByLabelText<HTMLInputElement>('New name for laptop');
    expect(input.value).toBe('laptop');
    fireEvent.change(input, { target: { value: 'work-laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await flush();
    expect(view.inputsOf('keys.rename')).toEqual([{ id: 'k1', name: 'work-laptop' }]);
    expect(screen.getByText('work-laptop')).toBeTruthy();
    expect(screen.queryByLabelText('New name for laptop')).toBeNull();
    expect(view.fake.state.keys.map((k) => [k.id, k.name, k.prefix])).toEqual([
      ['k1', 'work-laptop', 'lw-abcd'],
      ['k2', 'desktop', 'lw-abcd'],
    ]);
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
    expect(view.fake.state.keys.map((k) => k.name)).toEqual(['laptop', 'desktop']);
  });

  it('PROD-12 saving the same name sends nothing', async () => {
    const view = await renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Rename desktop' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await flush();
    expect(view.inputsOf('keys.rename')).toEqual([]);
  });
});
