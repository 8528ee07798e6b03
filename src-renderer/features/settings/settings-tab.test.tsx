// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { FAKE_INFO } from '../../testing/fake-state';
import { SettingsTab } from './settings-tab';

afterEach(cleanup);

const input = (label: string): HTMLInputElement => screen.getByLabelText(label);
const describedText = (el: HTMLElement): string =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
const section = (title: string): HTMLElement => screen.getByRole('form', { name: title });

describe('Settings tab', () => {
  it('LOCK-9 shows the model-lockout settings with the spec defaults', async () => {
    await renderWithFake(<SettingsTab />);
    const lockout = section('Model lockout');
    expect(within(lockout).getByLabelText<HTMLInputElement>('Enable model lockout').checked).toBe(false);
    expect(within(lockout).getByLabelText<HTMLInputElement>('Counted statuses').value).toBe(
      '403, 404, 429, 502, 503, 504',
    );
    expect(within(lockout).getByLabelText<HTMLInputElement>('First lockout').value).toBe('2');
    expect(describedText(within(lockout).getByLabelText('First lockout'))).toContain('= 2 min');
    expect(within(lockout).getByLabelText<HTMLInputElement>('Longest lockout').value).toBe('30');
    expect(within(lockout).getByLabelText<HTMLInputElement>('Escalation steps').value).toBe('10');
    expect(within(lockout).getByLabelText<HTMLInputElement>('Escalate repeated failures').checked).toBe(true);
    expect(input('Base cooldown (OAuth)').value).toBe('5');
    expect(input('Base cooldown (API key)').value).toBe('3');
  });

  it('PROD-6 an invalid value shows the core’s error at the field and keeps the draft', async () => {
    const view = await renderWithFake(<SettingsTab />);
    const breaker = section('Provider circuit breaker');
    const field = within(breaker).getByLabelText('Opens after failures (OAuth)');
    fireEvent.change(field, { target: { value: '0' } });
    fireEvent.click(within(breaker).getByRole('button', { name: 'Save provider circuit breaker' }));
    await flush();
    expect(view.inputsOf('resilience.updateSettings')).toEqual([{ breaker: { oauth: { failureThreshold: 0 } } }]);
    const after = within(breaker).getByLabelText<HTMLInputElement>('Opens after failures (OAuth)');
    expect(after.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(after)).toContain('Too small: expected number to be >=1');
    expect(after.value).toBe('0');
    expect(within(breaker).getByLabelText('Opens after failures (API key)').getAttribute('aria-invalid')).toBeNull();
    expect(view.fake.state.resilienceSettings.breaker).toMatchObject({ oauth: { failureThreshold: 8 } });
  });

  it('PROD-6 proxy settings: the router’s refusal lands at its field, a valid value is saved, paths shown read-only', async () => {
    const view = await renderWithFake(<SettingsTab />);
    const proxy = section('Proxy');
    fireEvent.change(within(proxy).getByLabelText('Largest request body'), { target: { value: '10' } });
    fireEvent.click(within(proxy).getByRole('button', { name: 'Save proxy' }));
    await flush();
    expect(describedText(within(proxy).getByLabelText('Largest request body'))).toMatch(/>=1024/);

    fireEvent.change(within(proxy).getByLabelText('Largest request body'), { target: { value: '1048576' } });
    fireEvent.change(within(proxy).getByLabelText('Activity log days kept'), { target: { value: '7' } });
    fireEvent.click(within(proxy).getByRole('button', { name: 'Save proxy' }));
    await flush();
    expect(view.inputsOf('settings.update').at(-1)).toEqual({ maxBodyBytes: 1_048_576, requestLogMaxAgeDays: 7 });
    expect(view.fake.state.settings.requestLogMaxAgeDays).toBe(7);

    const where = screen.getByRole('region', { name: 'Where Leeway runs' });
    expect(within(where).getByText(FAKE_INFO.dataDir)).toBeTruthy();
    expect(within(where).getByText('7431')).toBeTruthy();
    expect(within(where).queryByRole('textbox')).toBeNull();
  });
});
