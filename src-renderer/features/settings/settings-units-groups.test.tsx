// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fieldsOf } from './field-spec';
import { PROXY_SECTION } from './proxy-fields';
import { RESILIENCE_SECTIONS } from './resilience-fields';
import { SettingsTab } from './settings-tab';
import { STRATEGY_SECTION } from './strategy-fields';
import { COLLAPSED_GROUPS_KEY } from './use-collapsed-groups';

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

/** A requirement ID such as COOL-9 or LOCK-10 (UTF-8 is an encoding, not a requirement). */
const REQUIREMENT_ID = /\b(?!UTF-8\b)[A-Z]{2,}-\d+\b/;
const describedText = (el: HTMLElement): string =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
const form = (name: string) => screen.getByRole('form', { name });

describe('Settings in human units (issue 13 §8)', () => {
  it('PROD-6 proxy timeouts read in seconds and minutes and save as milliseconds', async () => {
    const view = await renderWithFake(<SettingsTab />);
    const proxy = form('Proxy');
    expect(within(proxy).getByLabelText<HTMLInputElement>('Streaming header timeout').value).toBe('60');
    expect(within(proxy).getByLabelText<HTMLInputElement>('Response timeout').value).toBe('10');
    fireEvent.change(within(proxy).getByLabelText('Response timeout'), { target: { value: '15' } });
    fireEvent.click(within(proxy).getByRole('button', { name: 'Save proxy' }));
    await flush();
    expect(view.inputsOf('settings.update')).toEqual([{ responseTimeoutMs: 900_000 }]);
  });

  it('PROD-6 a value that is no duration is refused at the field and nothing is sent', async () => {
    const view = await renderWithFake(<SettingsTab />);
    const queue = form('Request queue');
    const wait = within(queue).getByLabelText<HTMLInputElement>('Longest wait in the queue');
    fireEvent.change(wait, { target: { value: 'a while' } });
    fireEvent.click(within(queue).getByRole('button', { name: 'Save request queue' }));
    await flush();
    expect(view.inputsOf('resilience.updateSettings')).toEqual([]);
    expect(wait.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(wait)).toContain('Enter a duration in seconds');
  });

  it('PROD-6 no label, help text or intro names a requirement ID, in the specs or on screen', async () => {
    const texts = [...RESILIENCE_SECTIONS, PROXY_SECTION, STRATEGY_SECTION].flatMap((s) => [
      s.title,
      s.intro,
      ...fieldsOf(s).flatMap((f) => [f.label, f.help ?? '', f.emptyMeans ?? '']),
      ...(s.profileRows ?? []).map((r) => r.help ?? ''),
    ]);
    expect(texts.filter((t) => REQUIREMENT_ID.test(t))).toEqual([]);
    await renderWithFake(<SettingsTab />);
    expect(REQUIREMENT_ID.exec(document.body.textContent ?? '')).toBeNull();
  });
});

describe('Settings groups (issue 13 §8)', () => {
  const toggle = (name: string) => screen.getByRole('button', { name });

  it('PROD-6 every group starts open; folding one hides its cards and is remembered', async () => {
    await renderWithFake(<SettingsTab />);
    for (const name of ['Failover and cooldowns', 'Queues and streams', 'Routing', 'Proxy', 'Quota']) {
      expect(toggle(name).getAttribute('aria-expanded'), name).toBe('true');
    }
    expect(form('Model lockout')).toBeTruthy();
    fireEvent.click(toggle('Failover and cooldowns'));
    expect(toggle('Failover and cooldowns').getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('form', { name: 'Model lockout' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Provider error rules' })).toBeNull();
    expect(form('Request queue')).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem(COLLAPSED_GROUPS_KEY) ?? '[]')).toEqual(['failover']);

    cleanup();
    await renderWithFake(<SettingsTab />);
    expect(toggle('Failover and cooldowns').getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('form', { name: 'Model lockout' })).toBeNull();
  });

  it('PROD-6 the index opens a folded group; collapse all and expand all fold every group', async () => {
    await renderWithFake(<SettingsTab />);
    fireEvent.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(screen.queryByRole('form', { name: 'Proxy' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Quota store' })).toBeNull();
    const index = screen.getByRole('navigation', { name: 'Settings sections' });
    fireEvent.click(within(index).getByText('Model lockout'));
    expect(form('Model lockout')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Proxy' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(form('Proxy')).toBeTruthy();
    expect(form('Quota store')).toBeTruthy();
  });
});
