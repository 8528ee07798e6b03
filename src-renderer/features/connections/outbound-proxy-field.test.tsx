// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionInput } from '../../../src-shared/domain/connection';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { ConnectionsTab } from './connections-tab';

afterEach(cleanup);

const dialog = () => screen.getByRole('dialog');
const field = (label: string) => within(dialog()).getByLabelText(label) as HTMLInputElement;
const save = async () => {
  fireEvent.click(within(dialog()).getByRole('button', { name: /save changes/i }));
  await flush();
};
const lastSent = (inputsOf: (m: 'connections.upsert') => unknown[]) =>
  inputsOf('connections.upsert').at(-1) as ConnectionInput;

describe('connection editor: outbound proxy', () => {
  it('EGRESS-1: shows the masked proxy and the recorded egress IP; saving unchanged sends the masked form back', async () => {
    const zen = fakeConnection('zen', {
      kind: 'openai',
      outboundProxyUrl: 'http://***@proxy.example:8080',
      egressIp: '198.51.100.7',
    });
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [zen] } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit zen' }));
    expect(field('Outbound proxy').value).toBe('http://***@proxy.example:8080');
    expect(dialog().textContent).toContain('Last seen leaving from 198.51.100.7');
    await save();
    expect(lastSent(inputsOf).outboundProxyUrl).toBe('http://***@proxy.example:8080');
  });

  it('EGRESS-1: a typed proxy is sent, emptying it sends null, and a non-URL is refused beside the field', async () => {
    const zen = fakeConnection('zen', { kind: 'openai' });
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [zen] } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit zen' }));
    expect(field('Outbound proxy').value).toBe('');
    fireEvent.change(field('Outbound proxy'), { target: { value: 'not a url' } });
    const before = inputsOf('connections.upsert').length;
    await save();
    expect(inputsOf('connections.upsert')).toHaveLength(before);
    expect(dialog().textContent).toContain('must be an http(s) URL');
    fireEvent.change(field('Outbound proxy'), { target: { value: 'http://proxy.example:3128' } });
    await save();
    expect(lastSent(inputsOf).outboundProxyUrl).toBe('http://proxy.example:3128');
    fireEvent.click(screen.getByRole('button', { name: 'Edit zen' }));
    fireEvent.change(field('Outbound proxy'), { target: { value: '  ' } });
    await save();
    expect(lastSent(inputsOf).outboundProxyUrl).toBeNull();
  });
});
