// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src-shared/domain/settings';
import { FAKE_QUOTA_STORE_STATUS } from '../../testing/fake-state';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { SettingsTab } from './settings-tab';

afterEach(cleanup);

const type = (el: HTMLElement, value: string): void => void fireEvent.change(el, { target: { value } });
const card = (): HTMLElement => screen.getByRole('form', { name: 'Quota store' });
const errorOf = (el: HTMLElement): string | null => {
  const id = el.getAttribute('aria-describedby')?.split(' ')[0];
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
};

describe('Settings › Quota store', () => {
  it('QDRV-3 QENV-2: shows the driver in force and why it fell back, with empty fields meaning "from the environment"', async () => {
    await renderWithFake(<SettingsTab />, {
      seed: {
        quotaStoreStatus: {
          ...FAKE_QUOTA_STORE_STATUS,
          configured: 'redis',
          configuredFrom: 'env',
          active: 'sqlite',
          redisUrl: 'redis://:***@10.0.0.5:6379',
          fallbackReason: 'connect ECONNREFUSED 10.0.0.5:6379',
        },
      },
    });
    const status = within(card()).getByRole('status', { name: 'Quota store in force' });
    expect(status.textContent).toContain('In use: SQLite — configured redis by QUOTA_STORE_DRIVER.');
    expect(status.textContent).toContain('Fell back to SQLite: connect ECONNREFUSED 10.0.0.5:6379');
    expect(within(card()).getByLabelText<HTMLSelectElement>('Driver').value).toBe('');
    expect(within(card()).getByLabelText<HTMLInputElement>('Saturation threshold').placeholder).toBe('in force: 0.5');
  });

  it('QDRV-3: saves the whole quotaStore object with settings.update, empty fields as null', async () => {
    const { inputsOf, fake } = await renderWithFake(<SettingsTab />);
    type(within(card()).getByLabelText('Driver'), 'redis');
    type(within(card()).getByLabelText('Redis URL'), 'redis://127.0.0.1:6390');
    type(within(card()).getByLabelText('Saturation threshold'), '0.8');
    type(within(card()).getByLabelText('Retention (days)'), '30');
    fireEvent.click(within(card()).getByRole('button', { name: 'Save quota store' }));
    await flush();
    expect(inputsOf('settings.update')).toEqual([
      {
        quotaStore: {
          driver: 'redis',
          redisUrl: 'redis://127.0.0.1:6390',
          saturationThreshold: 0.8,
          softDeprioritizeFactor: null,
          retentionDays: 30,
        },
      },
    ]);
    expect(fake.state.settings.quotaStore).toMatchObject({ driver: 'redis', retentionDays: 30 });
    expect(inputsOf('quota.storeStatus')).toHaveLength(2);
    expect(within(card()).getByText('Saved.')).toBeTruthy();
    expect(within(card()).getByLabelText<HTMLInputElement>('Saturation threshold').value).toBe('0.8');
  });

  it('QENV-2: out-of-range values are refused at their field by the shared schema, nothing is sent', async () => {
    const { inputsOf } = await renderWithFake(<SettingsTab />, {
      seed: { settings: { ...DEFAULT_SETTINGS, quotaStore: { saturationThreshold: 0.6 } } },
    });
    expect(within(card()).getByLabelText<HTMLInputElement>('Saturation threshold').value).toBe('0.6');
    type(within(card()).getByLabelText('Saturation threshold'), '1.5');
    type(within(card()).getByLabelText('Redis URL'), 'http://nope');
    type(within(card()).getByLabelText('Retention (days)'), 'soon');
    fireEvent.click(within(card()).getByRole('button', { name: 'Save quota store' }));
    await flush();
    expect(inputsOf('settings.update')).toEqual([]);
    expect(errorOf(within(card()).getByLabelText('Saturation threshold'))).toMatch(/1/);
    expect(errorOf(within(card()).getByLabelText('Redis URL'))).toBe('must be a redis:// or rediss:// URL');
    expect(errorOf(within(card()).getByLabelText('Retention (days)'))).toBe('Enter a number, or leave it empty');
  });
});
