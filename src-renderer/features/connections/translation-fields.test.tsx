// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionInput } from '../../../src-shared/domain/connection';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { ConnectionsTab } from './connections-tab';

afterEach(cleanup);

const dialog = () => screen.getByRole('dialog');
const checkbox = () => within(dialog()).getByLabelText('Accept translated requests') as HTMLInputElement;
const responses = () => within(dialog()).queryByLabelText('Responses API (codex)') as HTMLSelectElement | null;
const save = async () => {
  fireEvent.click(within(dialog()).getByRole('button', { name: /save changes/i }));
  await flush();
};
const lastSent = (inputsOf: (m: 'connections.upsert') => unknown[]) =>
  inputsOf('connections.upsert').at(-1) as ConnectionInput;

describe('connection editor: translation', () => {
  it('ISSUE-12: accepts translated requests by default; unticking sends false and reopens unticked', async () => {
    const glm = fakeConnection('glm', { kind: 'openai-compatible', baseUrl: 'https://open.bigmodel.cn/api/paas/v4' });
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [glm] } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit glm' }));
    expect(checkbox().checked).toBe(true);
    expect(dialog().textContent).toContain('Claude Code on an OpenAI-compatible connection');
    fireEvent.click(checkbox());
    await save();
    expect(lastSent(inputsOf).acceptTranslated).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Edit glm' }));
    expect(checkbox().checked).toBe(false);
    fireEvent.click(checkbox());
    await save();
    expect(lastSent(inputsOf).acceptTranslated).toBe(true);
  });

  it('ISSUE-12: the Responses API choice maps to null / true / false and shows what is stored', async () => {
    const zen = fakeConnection('zen', { kind: 'openai-compatible', baseUrl: 'https://opencode.ai/zen/v1' });
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [zen] } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit zen' }));
    const select = responses();
    expect(select?.value).toBe('auto');
    expect([...(select?.options ?? [])].map((o) => o.textContent)).toEqual([
      'By kind (native for OpenAI)',
      'Native',
      'Translate',
    ]);
    await save();
    expect(lastSent(inputsOf).responsesApi).toBeNull();

    for (const [choice, sent] of [
      ['native', true],
      ['translate', false],
    ] as const) {
      fireEvent.click(screen.getByRole('button', { name: 'Edit zen' }));
      fireEvent.change(responses() ?? dialog(), { target: { value: choice } });
      await save();
      expect(lastSent(inputsOf).responsesApi).toBe(sent);
      fireEvent.click(screen.getByRole('button', { name: 'Edit zen' }));
      expect(responses()?.value).toBe(choice);
      fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    }
  });

  it('ISSUE-12: Anthropic-format kinds have no Responses choice and send null for it', async () => {
    const team = fakeConnection('team', { kind: 'anthropic', responsesApi: true });
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [team] } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit team' }));
    expect(checkbox()).toBeTruthy();
    expect(responses()).toBeNull();
    await save();
    expect(lastSent(inputsOf).responsesApi).toBeNull();
  });

  it('ISSUE-12: a list toggle keeps the stored translation switches', async () => {
    const glm = fakeConnection('glm', {
      kind: 'openai-compatible',
      baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
      acceptTranslated: false,
      responsesApi: true,
    });
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [glm] } });
    const row = screen.getByTestId('connection-row-glm');
    fireEvent.click(within(row).getByRole('checkbox'));
    await flush();
    expect(lastSent(inputsOf)).toMatchObject({ enabled: false, acceptTranslated: false, responsesApi: true });
  });
});
