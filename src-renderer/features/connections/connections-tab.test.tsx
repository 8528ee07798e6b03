// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok } from '../../../src-shared/contract/errors';
import type { ConnectionInput } from '../../../src-shared/domain/connection';
import type { ConnectionCooldownRow } from '../../../src-shared/domain/cooldown';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { ConnectionStatusChip } from './connection-status-chip';
import { ConnectionsTab } from './connections-tab';

const T0 = 1_700_000_000_000;

const cooling = (name: string, patch: Partial<ConnectionCooldownRow> = {}): ConnectionCooldownRow => ({
  id: `id-${name}`,
  name,
  provider: 'anthropic',
  rateLimitedUntil: T0 + 75_000,
  backoffLevel: 2,
  testStatus: 'unavailable',
  lastError: '429 rate_limit_error: slow down',
  lastErrorType: 'rate_limit',
  errorCode: '429',
  terminal: false,
  retryAfterMs: 75_000,
  ...patch,
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('connection status chip', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });

  it('PROD-6 COOL-11 counts a cooldown down each second from rateLimitedUntil, then shows OK', () => {
    render(<ConnectionStatusChip name="a" row={cooling('a')} />);
    expect(screen.getByRole('timer').textContent).toBe('01:15');
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer').textContent).toBe('01:14');
    act(() => void vi.advanceTimersByTime(60_000));
    expect(screen.getByRole('timer').textContent).toBe('00:14');
    act(() => void vi.advanceTimersByTime(14_000));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText('OK')).toBeTruthy();
  });

  it('PROD-6 COOL-7 shows a terminal state with a Reset button instead of a countdown', () => {
    const onReset = vi.fn();
    render(
      <ConnectionStatusChip
        name="a"
        row={cooling('a', { terminal: true, testStatus: 'credits_exhausted', rateLimitedUntil: null })}
        onReset={onReset}
      />,
    );
    expect(screen.getByText('Credits exhausted')).toBeTruthy();
    expect(screen.queryByRole('timer')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reset connection a' }));
    expect(onReset).toHaveBeenCalledOnce();
  });
});

describe('connections list', () => {
  it('PROD-6 lists each connection with a live countdown on the core’s clock and its last error', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    await renderWithFake(<ConnectionsTab />, {
      now: () => Date.now(),
      seed: {
        connections: [fakeConnection('slow'), fakeConnection('fine', { priority: 0, models: ['claude-sonnet-4-5'] })],
        cooldowns: { connections: [cooling('slow')], providers: [], models: [] },
      },
    });
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual(['connection-row-fine', 'connection-row-slow']);
    const slow = within(screen.getByTestId('connection-row-slow'));
    expect(slow.getByRole('timer').textContent).toBe('01:15');
    expect(slow.getByText(/429 rate_limit_error/)).toBeTruthy();
    act(() => void vi.advanceTimersByTime(5000));
    expect(slow.getByRole('timer').textContent).toBe('01:10');
    expect(within(screen.getByTestId('connection-row-fine')).getByText('OK')).toBeTruthy();
  });

  it('PROD-6 COOL-10 resets a terminal connection with connections.reset', async () => {
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, {
      seed: {
        connections: [fakeConnection('gone')],
        cooldowns: {
          connections: [
            cooling('gone', {
              terminal: true,
              testStatus: 'banned',
              rateLimitedUntil: null,
              lastError: 'account disabled',
            }),
          ],
          providers: [],
          models: [],
        },
      },
    });
    const row = within(screen.getByTestId('connection-row-gone'));
    expect(row.getByText('Banned')).toBeTruthy();
    expect(row.getByText('account disabled')).toBeTruthy();
    fireEvent.click(row.getByRole('button', { name: 'Reset connection gone' }));
    await flush();
    expect(inputsOf('connections.reset')).toEqual([{ name: 'gone' }]);
    expect(row.getByText('OK')).toBeTruthy();
    expect(row.queryByText('Banned')).toBeNull();
  });

  it('PROD-5 Test shows the latency or the error, and adds the models the upstream listed', async () => {
    let answer = ok({
      ok: true,
      status: 200,
      latencyMs: 42,
      message: 'Connected',
      models: ['gpt-4.1', 'gpt-4.1-mini'],
    });
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, {
      seed: { connections: [fakeConnection('oai', { kind: 'openai', models: ['gpt-4.1'] })] },
      wrap: (inner) => ({
        ...inner,
        call: async (method, input) => (method === 'connections.test' ? answer : inner.call(method, input)),
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Test oai' }));
    await flush();
    const status = screen.getByRole('status');
    expect(status.textContent).toMatch(/Connected · HTTP 200 · 42 ms/);
    fireEvent.click(within(status).getByRole('button', { name: 'Add 1 model' }));
    await flush();
    const sent = inputsOf('connections.upsert').at(-1) as ConnectionInput;
    expect(sent.models).toEqual(['gpt-4.1', 'gpt-4.1-mini']);
    expect(sent).not.toHaveProperty('secret');

    answer = ok({ ok: false, status: 401, latencyMs: 12, message: 'invalid x-api-key', models: [] });
    fireEvent.click(screen.getByRole('button', { name: 'Test oai' }));
    await flush();
    expect(screen.getByRole('status').textContent).toMatch(/Test failed · HTTP 401 · 12 ms · invalid x-api-key/);
  });

  it('PROD-5 removes a connection only after confirmation and shows the core’s refusal when a combo uses it', async () => {
    let refuse = true;
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, {
      seed: { connections: [fakeConnection('used')] },
      wrap: (inner) => ({
        ...inner,
        call: async (method, input) =>
          method === 'connections.remove' && refuse
            ? fail('conflict', 'Connection "used" is used by combo(s) coding; remove it there first')
            : inner.call(method, input),
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(inputsOf('connections.remove')).toHaveLength(0);
    const yes = screen.getByRole('group', { name: 'Remove used?' });
    fireEvent.click(within(yes).getByRole('button', { name: 'Remove' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toMatch(/used by combo\(s\) coding/);

    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Remove used?' })).getByRole('button', { name: 'Remove' }),
    );
    await flush();
    expect(screen.queryByTestId('connection-row-used')).toBeNull();
  });

  it('PROD-5 the enabled switch saves the connection without touching its secret', async () => {
    const { inputsOf } = await renderWithFake(<ConnectionsTab />, { seed: { connections: [fakeConnection('a')] } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Enabled: a' }));
    await flush();
    const sent = inputsOf('connections.upsert').at(-1) as ConnectionInput;
    expect(sent).toMatchObject({ name: 'a', enabled: false });
    expect(sent).not.toHaveProperty('secret');
    expect((screen.getByRole('checkbox', { name: 'Enabled: a' }) as HTMLInputElement).checked).toBe(false);
  });

  it('PROD-5 an empty list tells a new user what to add and opens the editor', async () => {
    await renderWithFake(<ConnectionsTab />);
    expect(screen.getByText('No connections yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add your first connection' }));
    expect(screen.getByRole('dialog', { name: 'Add connection' })).toBeTruthy();
  });
});
