// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { SettingsTab } from './settings-tab';

afterEach(cleanup);

const select = (): HTMLSelectElement =>
  within(screen.getByRole('region', { name: 'Feature flags' })).getByLabelText<HTMLSelectElement>('Emergency fallback');

describe('Settings › Feature flags', () => {
  it('ROUTE-5 QENV-5: the emergency fallback follows the environment until set, and is saved on change without a restart', async () => {
    const { inputsOf, fake } = await renderWithFake(<SettingsTab />);
    expect(select().value).toBe('env');
    fireEvent.change(select(), { target: { value: 'on' } });
    await flush();
    expect(inputsOf('settings.update')).toEqual([{ emergencyFallback: true }]);
    expect(fake.state.settings.emergencyFallback).toBe(true);
    expect(select().value).toBe('on');
    fireEvent.change(select(), { target: { value: 'env' } });
    await flush();
    expect(fake.state.settings.emergencyFallback).toBeNull();
  });
});
