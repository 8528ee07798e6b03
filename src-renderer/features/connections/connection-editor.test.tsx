// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '../../../src-shared/contract/errors';
import type { ConnectionInput } from '../../../src-shared/domain/connection';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { ConnectionsTab } from './connections-tab';

afterEach(cleanup);

const dialog = () => screen.getByRole('dialog');
const field = (label: string | RegExp) => within(dialog()).getByLabelText(label) as HTMLInputElement;
const type = (label: string | RegExp, value: string) => fireEvent.change(field(label), { target: { value } });
/** The inline message a field announces (aria-describedby), error first. */
const describedText = (label: string | RegExp): string =>
  (field(label).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');
const save = async (name: RegExp = /add connection|save changes/i) => {
  fireEvent.click(within(dialog()).getByRole('button', { name }));
  await flush();
};

describe('connection editor', () => {
  it('PROD-5 shows the Claude section only for claude-oauth connections, both toggles off by default', async () => {
    await renderWithFake(<ConnectionsTab />);
    fireEvent.click(screen.getAllByRole('button', { name: /add (your first )?connection/i })[0]!);
    expect(within(dialog()).queryByLabelText('Low priority')).toBeNull();
    expect(within(dialog()).queryByLabelText('Auto limit reset')).toBeNull();

    fireEvent.change(field('Kind'), { target: { value: 'claude-oauth' } });
    expect(field('Low priority').checked).toBe(false);
    expect(field('Auto limit reset').checked).toBe(false);
    expect(describedText('Low priority')).toMatch(/slower lane.*much longer/);
    expect(describedText('Auto limit reset')).toMatch(/limit reset.*Uses up/);

    fireEvent.change(field('Kind'), { target: { value: 'openai' } });
    expect(within(dialog()).queryByLabelText('Low priority')).toBeNull();
  });

  it('PROD-5 Claude toggles persist through connections.upsert and come back when the editor reopens', async () => {
    const { inputsOf } = await renderWithFake(<ConnectionsTab />);
    const opener = screen.getAllByRole('button', { name: /add (your first )?connection/i })[0]!;
    opener.focus();
    fireEvent.click(opener);
    expect(document.activeElement).toBe(field('Name'));
    type('Name', 'claude-max');
    fireEvent.change(field('Kind'), { target: { value: 'claude-oauth' } });
    type('Access token', 'sk-ant-oat01-access-token-value');
    fireEvent.click(field('Low priority'));
    await save();

    const sent = inputsOf('connections.upsert').at(-1) as ConnectionInput;
    expect(sent.providerSpecificData).toEqual({ lowPriorityMode: true, autoLimitReset: false });
    expect(sent.secret).toEqual({ type: 'oauth', accessToken: 'sk-ant-oat01-access-token-value' });
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Edit claude-max' }));
    expect(field('Low priority').checked).toBe(true);
    expect(field('Auto limit reset').checked).toBe(false);
    fireEvent.click(field('Low priority'));
    fireEvent.click(field('Auto limit reset'));
    await save();

    fireEvent.click(screen.getByRole('button', { name: 'Edit claude-max' }));
    expect(field('Low priority').checked).toBe(false);
    expect(field('Auto limit reset').checked).toBe(true);
  });

  it('PROD-5 PROD-18 leaves the secret empty on edit, says the stored one is kept, and never sends an untouched secret', async () => {
    const seeded = fakeConnection('work', {
      kind: 'openai',
      secretHint: 'sk-pro…wxyz',
      models: ['gpt-4.1'],
      providerSpecificData: { org: 'x' },
    });
    const { inputsOf, fake } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [seeded] } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit work' }));
    expect(field('API key').value).toBe('');
    expect(describedText('API key')).toContain('Stored: sk-pro…wxyz. Leave empty to keep it.');
    type('Priority', '3');
    await save();

    const sent = inputsOf('connections.upsert').at(-1) as ConnectionInput;
    expect(sent).not.toHaveProperty('secret');
    expect(sent).toMatchObject({ name: 'work', priority: 3, models: ['gpt-4.1'], providerSpecificData: { org: 'x' } });
    expect(fake.state.connections[0]?.secretHint).toBe('sk-pro…wxyz');

    fireEvent.click(screen.getByRole('button', { name: 'Edit work' }));
    type('API key', 'sk-proj-a-brand-new-key-0123456789');
    await save();
    expect((inputsOf('connections.upsert').at(-1) as ConnectionInput).secret).toEqual({
      type: 'api-key',
      apiKey: 'sk-proj-a-brand-new-key-0123456789',
    });
  });

  it('PROD-5 shows validation messages inline beside each field and sends nothing until they are fixed', async () => {
    const { inputsOf } = await renderWithFake(<ConnectionsTab />);
    fireEvent.click(screen.getAllByRole('button', { name: /add (your first )?connection/i })[0]!);
    fireEvent.change(field('Kind'), { target: { value: 'openai-compatible' } });
    expect(field('Base URL').placeholder).toBe('http://localhost:11434/v1');
    type('Name', 'bad name!');
    type('Priority', 'soon');
    type('Max concurrent requests', '0');
    await save();

    expect(inputsOf('connections.upsert')).toHaveLength(0);
    expect(describedText('Name')).toMatch(/letters, digits/);
    expect(describedText('Base URL')).toMatch(/required for openai-compatible/);
    expect(describedText('Priority')).toMatch(/whole number/);
    expect(describedText('Max concurrent requests')).toMatch(/>=1|at least|too small/i);
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Name'));

    fireEvent.change(field('Kind'), { target: { value: 'anthropic' } });
    expect(field('Base URL').placeholder).toBe('https://api.anthropic.com');
    type('Name', 'ok-name');
    type('Priority', '2');
    type('Max concurrent requests', '');
    await save();
    expect(inputsOf('connections.upsert')).toHaveLength(0);
    expect(describedText('API key')).toMatch(/API key is required/);
  });

  it('PROD-5 places the core’s invalid_input issues next to the fields they name', async () => {
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, {
      wrap: (inner) => ({
        ...inner,
        call: async (method, input) =>
          method === 'connections.upsert'
            ? fail('invalid_input', 'secret: changing the kind needs a new credential', {
                details: {
                  issues: [
                    { path: 'secret', message: 'is required when the kind changes' },
                    { path: 'baseUrl', message: 'is not reachable' },
                  ],
                },
              })
            : inner.call(method, input),
      }),
    });
    fireEvent.click(screen.getAllByRole('button', { name: /add (your first )?connection/i })[0]!);
    type('Name', 'a');
    type('API key', 'sk-ant-api03-some-long-enough-key');
    await save();
    expect(inputsOf('connections.upsert')).toHaveLength(1);
    expect(describedText('API key')).toContain('is required when the kind changes');
    expect(describedText('Base URL')).toContain('is not reachable');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('PROD-5 Escape closes the editor and gives focus back to the button that opened it', async () => {
    await renderWithFake(<ConnectionsTab />, { seed: { connections: [fakeConnection('work')] } });
    const edit = screen.getByRole('button', { name: 'Edit work' });
    edit.focus();
    fireEvent.click(edit);
    expect(field('Name').readOnly).toBe(false);
    expect(document.activeElement).toBe(field('Kind'));
    fireEvent.keyDown(field('Kind'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(edit);
  });
});
