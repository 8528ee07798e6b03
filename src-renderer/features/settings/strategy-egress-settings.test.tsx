// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { settingsPatchSchema } from '../../../src-shared/domain/settings';
import { parseProbeUrl } from './egress-probe-section';
import { SettingsTab } from './settings-tab';

afterEach(cleanup);

const type = (el: HTMLElement, value: string): void => void fireEvent.change(el, { target: { value } });
const described = (el: HTMLElement): string =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('Settings › Combo strategies', () => {
  it('ROUTE-1: round-robin picks in a row shows the default 1 and saves a new value through settings.update', async () => {
    const { inputsOf, fake } = await renderWithFake(<SettingsTab />);
    const section = screen.getByRole('form', { name: 'Combo strategies' });
    const field = within(section).getByLabelText<HTMLInputElement>('Round-robin picks in a row');
    expect(field.value).toBe('1');
    expect(described(field)).toContain('range 1 – 100');
    type(field, '3');
    fireEvent.click(within(section).getByRole('button', { name: /^Save combo strategies/ }));
    await flush();
    expect(inputsOf('settings.update')).toEqual([{ stickyRoundRobinLimit: 3 }]);
    expect(fake.state.settings.stickyRoundRobinLimit).toBe(3);
    expect(within(section).getByRole('status').textContent).toBe('Saved.');
  });

  it('ROUTE-1: a value past 100 is refused by the contract and shown at the field', async () => {
    const { fake } = await renderWithFake(<SettingsTab />);
    const section = screen.getByRole('form', { name: 'Combo strategies' });
    type(within(section).getByLabelText('Round-robin picks in a row'), '101');
    fireEvent.click(within(section).getByRole('button', { name: /^Save combo strategies/ }));
    await flush();
    expect(fake.state.settings.stickyRoundRobinLimit).toBe(1);
    expect(within(section).getByRole('alert').textContent).toMatch(/100/);
  });
});

describe('Settings › Egress IP probe', () => {
  const probe = () => screen.getByRole('form', { name: 'Egress IP probe' });
  const field = () => within(probe()).getByLabelText<HTMLInputElement>('IP probe URL');
  const saveButton = () => within(probe()).getByRole('button', { name: 'Save egress IP probe' });

  it('EGRESS: off (empty) by default, with help naming what is asked and an example URL', async () => {
    await renderWithFake(<SettingsTab />);
    expect(field().value).toBe('');
    const help = described(field());
    expect(help).toContain('https://api.ipify.org');
    expect(help).toMatch(/public IP/);
    expect(probe().textContent).toMatch(/Off by default/);
  });

  it('EGRESS: an https URL is saved; emptying the field saves null (off)', async () => {
    const { inputsOf, fake } = await renderWithFake(<SettingsTab />);
    type(field(), ' https://api.ipify.org ');
    fireEvent.click(saveButton());
    await flush();
    expect(fake.state.settings.egressIpProbeUrl).toBe('https://api.ipify.org');
    expect(field().value).toBe('https://api.ipify.org');
    type(field(), '');
    fireEvent.click(saveButton());
    await flush();
    expect(inputsOf('settings.update')).toEqual([
      { egressIpProbeUrl: 'https://api.ipify.org' },
      { egressIpProbeUrl: null },
    ]);
    expect(fake.state.settings.egressIpProbeUrl).toBeNull();
    expect(within(probe()).getByRole('status').textContent).toBe('Saved. The probe is off.');
  });

  it('EGRESS: a non-URL or a non-http(s) URL is refused at the field and nothing is sent', async () => {
    const { inputsOf } = await renderWithFake(<SettingsTab />);
    type(field(), 'api.ipify.org');
    fireEvent.click(saveButton());
    await flush();
    expect(described(field())).toMatch(/full URL/);
    type(field(), 'ftp://example.com/ip');
    fireEvent.click(saveButton());
    await flush();
    expect(described(field())).toMatch(/http:\/\/ or https:\/\//);
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(inputsOf('settings.update')).toEqual([]);
  });

  it('EGRESS: the contract refuses what the form refuses (http(s) only), so a direct call cannot store ftp either', () => {
    for (const url of ['http://127.0.0.1:8080/ip', 'https://api.ipify.org']) {
      expect(parseProbeUrl(url)).toEqual({ ok: true, value: url });
      expect(settingsPatchSchema.safeParse({ egressIpProbeUrl: url }).success).toBe(true);
    }
    for (const url of ['ftp://example.com/ip', 'javascript:alert(1)', 'file:///etc/hosts']) {
      expect(parseProbeUrl(url).ok, url).toBe(false);
      expect(settingsPatchSchema.safeParse({ egressIpProbeUrl: url }).success, url).toBe(false);
    }
    expect(settingsPatchSchema.safeParse({ egressIpProbeUrl: null }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ stickyRoundRobinLimit: 0 }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ stickyRoundRobinLimit: 100 }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ stickyRoundRobinLimit: 1.5 }).success).toBe(false);
  });
});
