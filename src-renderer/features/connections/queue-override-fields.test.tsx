// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionInput } from '../../../src-shared/domain/connection';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { ConnectionsTab } from './connections-tab';

afterEach(cleanup);

const dialog = () => screen.getByRole('dialog');
const field = (label: string | RegExp) => within(dialog()).getByLabelText(label) as HTMLInputElement;
const type = (label: string | RegExp, value: string) => fireEvent.change(field(label), { target: { value } });
const save = async () => {
  fireEvent.click(within(dialog()).getByRole('button', { name: /save changes/i }));
  await flush();
};

describe('connection editor: request queue overrides', () => {
  it('QUEUE-7: the per-connection queue budgets are shown, sent with the upsert and come back on reopen', async () => {
    const glm = fakeConnection('glm', { kind: 'openai', maxConcurrent: 1, rateLimitOverrides: { maxWaitMs: 5_000 } });
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [glm] } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit glm' }));
    expect(field('Queue wait (ms)').value).toBe('5000');
    expect(field('Max waiting requests').value).toBe('');
    type('Max waiting requests', '3');
    await save();
    const sent = inputsOf('connections.upsert').at(-1) as ConnectionInput;
    expect(sent.rateLimitOverrides).toEqual({ maxWaitMs: 5_000, maxQueueDepth: 3 });

    fireEvent.click(screen.getByRole('button', { name: 'Edit glm' }));
    expect(field('Max waiting requests').value).toBe('3');
    // Emptied fields fall back to the settings: nothing is sent for them.
    type('Queue wait (ms)', '');
    type('Max waiting requests', '');
    await save();
    expect((inputsOf('connections.upsert').at(-1) as ConnectionInput).rateLimitOverrides).toBeUndefined();
  });

  it('QUEUE-6: a budget over 24 h is refused beside the fields and nothing is sent', async () => {
    const glm = fakeConnection('glm', { kind: 'openai', maxConcurrent: 1 });
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [glm] } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit glm' }));
    type('Execution limit (ms)', '90000000');
    await save();
    expect(inputsOf('connections.upsert')).toHaveLength(0);
    expect(field('Queue wait (ms)').getAttribute('aria-invalid')).toBe('true');
  });
});
