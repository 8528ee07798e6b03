// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../api/render-with-fake';
import { SettingsTab } from './settings-tab';

afterEach(cleanup);

const type = (el: HTMLElement, value: string): void => void fireEvent.change(el, { target: { value } });

describe('Settings › Resilience › Wait out short cooldowns and Request queue', () => {
  it('CONC-8: shows comboCooldownWait with its defaults; a change sends only what changed', async () => {
    const { inputsOf, fake } = await renderWithFake(<SettingsTab />);
    const section = screen.getByRole('form', { name: 'Wait out short cooldowns' });
    const toggle = within(section).getByLabelText<HTMLInputElement>('Wait out short cooldowns');
    expect(toggle.checked).toBe(true);
    expect(within(section).getByLabelText<HTMLInputElement>('Waits per request').value).toBe('5');
    fireEvent.click(toggle);
    type(within(section).getByLabelText('Waits per request'), '3');
    fireEvent.click(within(section).getByRole('button', { name: /^Save wait out short cooldowns/ }));
    await flush();
    expect(inputsOf('resilience.updateSettings')).toEqual([{ comboCooldownWait: { enabled: false, maxAttempts: 3 } }]);
    expect(fake.state.resilienceSettings.comboCooldownWait).toEqual({
      enabled: false,
      maxWaitMs: 90_000,
      maxAttempts: 3,
      budgetMs: 300_000,
    });
  });

  it('QUEUE-2 QUEUE-9: shows the request queue with its defaults and saves a queue depth', async () => {
    const { inputsOf, fake } = await renderWithFake(<SettingsTab />);
    const section = screen.getByRole('form', { name: 'Request queue' });
    expect(within(section).getByLabelText<HTMLInputElement>('Requests waiting at most').value).toBe('0');
    type(within(section).getByLabelText('Requests waiting at most'), '2');
    fireEvent.click(within(section).getByRole('button', { name: /^Save request queue/ }));
    await flush();
    expect(inputsOf('resilience.updateSettings')).toEqual([{ requestQueue: { maxQueueDepth: 2 } }]);
    expect(fake.state.resilienceSettings.requestQueue.maxQueueDepth).toBe(2);
  });
});
