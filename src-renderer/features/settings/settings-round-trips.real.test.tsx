// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RendererCore } from '../../../src-main/testing/renderer-core';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { seed } from '../../testing/seed-core.real';
import { SettingsTab } from './settings-tab';

afterEach(() => {
  cleanup();
  closeCores();
});

const type = (el: HTMLElement, value: string): void => void fireEvent.change(el, { target: { value } });
const form = (name: string) => screen.getByRole('form', { name });
const describedText = (el: HTMLElement): string =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

const renderTab = async () => renderWithCore(<SettingsTab />, await startCore());
/** The resilience settings in force, as the core now answers them. */
const resilienceOf = (core: RendererCore) => seed(core, 'resilience.getSettings', undefined);

/** Saved settings are merged, validated and clamped by the core: these round trips go through its real handlers. */
describe('Settings round trips, against the real handlers', () => {
  it('CONC-8: shows comboCooldownWait with its defaults; a change sends only what changed', async () => {
    const { inputsOf, core } = await renderTab();
    const section = screen.getByRole('form', { name: 'Wait out short cooldowns' });
    const toggle = within(section).getByLabelText<HTMLInputElement>('Wait out short cooldowns');
    expect(toggle.checked).toBe(true);
    expect(within(section).getByLabelText<HTMLInputElement>('Waits per request').value).toBe('5');
    fireEvent.click(toggle);
    type(within(section).getByLabelText('Waits per request'), '3');
    fireEvent.click(within(section).getByRole('button', { name: /^Save wait out short cooldowns/ }));
    await flush();
    expect(inputsOf('resilience.updateSettings')).toEqual([{ comboCooldownWait: { enabled: false, maxAttempts: 3 } }]);
    expect((await resilienceOf(core)).comboCooldownWait).toEqual({
      enabled: false,
      maxWaitMs: 90_000,
      maxAttempts: 3,
      budgetMs: 300_000,
    });
  });

  it('QUEUE-2 QUEUE-9: shows the request queue with its defaults and saves a queue depth', async () => {
    const { inputsOf, core } = await renderTab();
    const section = screen.getByRole('form', { name: 'Request queue' });
    expect(within(section).getByLabelText<HTMLInputElement>('Requests waiting at most').value).toBe('0');
    type(within(section).getByLabelText('Requests waiting at most'), '2');
    fireEvent.click(within(section).getByRole('button', { name: /^Save request queue/ }));
    await flush();
    expect(inputsOf('resilience.updateSettings')).toEqual([{ requestQueue: { maxQueueDepth: 2 } }]);
    expect((await resilienceOf(core)).requestQueue.maxQueueDepth).toBe(2);
  });

  it('CONC-5: on by default, and switching it off sends resilience.updateSettings({ quotaShareConcurrencyLimit })', async () => {
    const { inputsOf, core } = await renderTab();
    const section = screen.getByRole('form', { name: 'Quota-share per-connection concurrency' });
    const toggle = within(section).getByLabelText<HTMLInputElement>('Serialise quota-share requests per connection');
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    fireEvent.click(within(section).getByRole('button', { name: /^Save quota-share/ }));
    await flush();
    expect(inputsOf('resilience.updateSettings')).toEqual([{ quotaShareConcurrencyLimit: { enabled: false } }]);
    expect((await resilienceOf(core)).quotaShareConcurrencyLimit).toEqual({ enabled: false });
    expect(
      within(section).getByLabelText<HTMLInputElement>('Serialise quota-share requests per connection').checked,
    ).toBe(false);
  });

  it('LOCK-9 LOCK-10 a valid change calls resilience.updateSettings with only what changed', async () => {
    const view = await renderTab();
    const lockout = form('Model lockout');
    fireEvent.click(within(lockout).getByLabelText('Enable model lockout'));
    fireEvent.change(within(lockout).getByLabelText('First lockout'), { target: { value: '1' } });
    fireEvent.click(within(lockout).getByRole('button', { name: 'Save model lockout' }));
    await flush();
    expect(view.inputsOf('resilience.updateSettings')).toEqual([
      { modelLockout: { enabled: true, baseCooldownMs: 60_000 } },
    ]);
    expect((await resilienceOf(view.core)).modelLockout).toMatchObject({ enabled: true, baseCooldownMs: 60_000 });
    expect(within(lockout).getByRole('status').textContent).toBe('Saved.');
    expect(within(lockout).getByLabelText<HTMLInputElement>('First lockout').value).toBe('1');
  });

  it('LOCK-10 says so when the core clamped a value into its range', async () => {
    await renderTab();
    const lockout = form('Model lockout');
    fireEvent.change(within(lockout).getByLabelText('Escalation steps'), { target: { value: '50' } });
    fireEvent.click(within(lockout).getByRole('button', { name: 'Save model lockout' }));
    await flush();
    expect(within(lockout).getByRole('status').textContent).toMatch(/Escalation steps: 50 became 20/);
    expect(within(lockout).getByLabelText<HTMLInputElement>('Escalation steps').value).toBe('20');
  });

  it('PROD-6 durations show in minutes or seconds with their unit; what is sent stays in milliseconds', async () => {
    const view = await renderTab();
    const lockout = form('Model lockout');
    const first = within(lockout).getByLabelText<HTMLInputElement>('First lockout');
    expect(first.value).toBe('2');
    expect(first.parentElement?.textContent).toContain('minutes');
    expect(describedText(first)).toContain('= 2 min');
    expect(describedText(first)).toContain('range 5 s – 10 min');

    fireEvent.change(first, { target: { value: '90 s' } });
    expect(describedText(first)).toContain('= 1 min 30 s');
    fireEvent.change(within(lockout).getByLabelText('Longest lockout'), { target: { value: '1.5' } });
    fireEvent.click(within(lockout).getByRole('button', { name: 'Save model lockout' }));
    await flush();
    expect(view.inputsOf('resilience.updateSettings')).toEqual([
      { modelLockout: { baseCooldownMs: 90_000, maxCooldownMs: 90_000 } },
    ]);
    expect((await resilienceOf(view.core)).modelLockout.baseCooldownMs).toBe(90_000);
    expect(within(lockout).getByLabelText<HTMLInputElement>('First lockout').value).toBe('1.5');
  });
});
