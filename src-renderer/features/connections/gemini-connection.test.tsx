// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionInput } from '../../../src-shared/domain/connection';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { ConnectionsTab } from './connections-tab';

afterEach(cleanup);

const dialog = () => screen.getByRole('dialog');
const field = (label: string | RegExp) => within(dialog()).getByLabelText(label) as HTMLInputElement;

describe('gemini connection in the form (issue 23 §1)', () => {
  it('ISSUE-23 offers the gemini kind with Google as the default base URL, and saves it with an API key', async () => {
    const { inputsOf } = await renderWithFake(<ConnectionsTab />);
    fireEvent.click(screen.getAllByRole('button', { name: /add (your first )?connection/i })[0]!);
    fireEvent.change(field('Kind'), { target: { value: 'gemini' } });
    expect(within(field('Kind')).getByRole('option', { name: /Gemini/ })).toBeTruthy();
    expect(field('Base URL').placeholder).toBe('https://generativelanguage.googleapis.com');
    fireEvent.change(field('Name'), { target: { value: 'google' } });
    fireEvent.change(field('API key'), { target: { value: 'AIza-test-key-0123456789' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: /add connection/i }));
    await flush();
    expect(inputsOf('connections.upsert').at(-1) as ConnectionInput).toMatchObject({
      name: 'google',
      kind: 'gemini',
      secret: { type: 'api-key', apiKey: 'AIza-test-key-0123456789' },
    });
  });
});
