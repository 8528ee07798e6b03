// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '../../src-shared/contract/errors';
import { App } from '../app';
import { fakeConnection } from '../testing/fake-fixtures';
import { flush, renderWithFake } from '../testing/render-with-fake';
import { runAction, useAction } from './action';
import { useResource } from './resource-context';
import { COMBOS, CONNECTIONS, KEYS } from './shared-data';

afterEach(cleanup);

function Names({ label }: { label: string }) {
  const { data } = useResource(CONNECTIONS);
  return <p aria-label={label}>{data?.map((c) => c.name).join(',') ?? '…'}</p>;
}

function Revoke() {
  const revoke = useAction('keys.revoke');
  return (
    <button type="button" disabled={revoke.pending} onClick={() => void revoke.run({ id: 'k1' })}>
      {revoke.error?.code ?? 'Revoke'}
    </button>
  );
}

describe('useResource and actions', () => {
  it('PROD-8 two views of one datum share one read and one subscription, dropped when both leave', async () => {
    const view = await renderWithFake(
      <>
        <Names label="one" />
        <Names label="two" />
      </>,
      { seed: { connections: [fakeConnection('a')] } },
    );
    expect(screen.getByLabelText('one').textContent).toBe('a');
    expect(screen.getByLabelText('two').textContent).toBe('a');
    expect(view.inputsOf('connections.list')).toHaveLength(1);
    act(() => view.fake.emit({ type: 'connections.changed', payload: { connections: [fakeConnection('b')] } }));
    expect(screen.getByLabelText('two').textContent).toBe('b');
    view.unmount();
    expect(view.cache.get(CONNECTIONS).active()).toBe(false);
  });

  it('an action re-reads what it changed that someone reads, and nothing else', async () => {
    const view = await renderWithFake(<Names label="names" />);
    const keys = view.cache.get(KEYS);
    const off = keys.subscribe(() => {});
    await flush();
    expect(view.inputsOf('keys.list')).toHaveLength(1);
    const created = await runAction(view.cache, 'keys.create', { name: 'laptop' });
    expect(created.ok).toBe(true);
    expect(view.inputsOf('keys.list')).toHaveLength(2);
    expect(keys.getSnapshot().data?.map((k) => k.name)).toEqual(['laptop']);
    await runAction(view.cache, 'combos.upsert', { name: 'c', targets: [{ connection: 'a', model: null }] });
    expect(view.inputsOf('combos.list')).toEqual([]);
    expect(view.cache.get(COMBOS).active()).toBe(false);
    off();
  });

  it('useAction is pending until the answer, then holds the typed refusal', async () => {
    await renderWithFake(<Revoke />, {
      wrap: (inner) => ({
        ...inner,
        call: (method, input) =>
          method === 'keys.revoke' ? Promise.resolve(fail('not_found', 'gone')) : inner.call(method, input),
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(screen.getByRole('button').hasAttribute('disabled')).toBe(true);
    await flush();
    expect(screen.getByRole('button', { name: 'not_found' }).hasAttribute('disabled')).toBe(false);
  });

  it('PROD-8 the dashboard reads the proxy state at start and again after a stream gap, and leaves the activity log to its tab', async () => {
    const view = await renderWithFake(<App />);
    expect(view.inputsOf('app.info')).toHaveLength(1);
    act(() => view.fake.reconnect());
    await flush();
    expect(view.inputsOf('app.info')).toHaveLength(2);
    expect(view.inputsOf('activity.list')).toEqual([]);
  });
});
