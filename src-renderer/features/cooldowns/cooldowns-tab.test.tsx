// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import type { ConnectionCooldownRow, CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import type { FakeState } from '../../testing/fake-state';
import { CooldownsTab } from './cooldowns-tab';

const NOW = 1_700_000_000_000;

const connection = (name: string, extra: Partial<ConnectionCooldownRow> = {}): ConnectionCooldownRow => ({
  id: `id-${name}`,
  name,
  provider: 'anthropic@https://api.anthropic.com',
  rateLimitedUntil: null,
  backoffLevel: 0,
  testStatus: 'active',
  lastError: null,
  lastErrorType: null,
  errorCode: null,
  terminal: false,
  retryAfterMs: null,
  ...extra,
});

const cooling = connection('main', {
  rateLimitedUntil: NOW + 30_000,
  retryAfterMs: 30_000,
  backoffLevel: 2,
  testStatus: 'unavailable',
  lastError: 'Rate limit reached for requests',
  lastErrorType: 'rate_limited',
  errorCode: '429',
});
const banned = connection('old', { testStatus: 'banned', terminal: true, lastError: 'Request not allowed' });

const seed = (): Partial<FakeState> => ({
  cooldowns: {
    connections: [cooling, banned, connection('healthy')],
    providers: [
      {
        provider: 'openai@https://api.openai.com',
        kind: 'openai',
        origin: 'https://api.openai.com',
        profile: 'apikey',
        state: 'OPEN',
        failureCount: 12,
        retryAfterMs: 45_000,
        gate: null,
      },
    ],
    models: [
      {
        key: 'openai@https://api.openai.com:id-main:gpt-5',
        provider: 'openai@https://api.openai.com',
        connectionId: 'id-main',
        connection: 'main',
        model: 'gpt-5',
        reason: 'quota_exhausted',
        expiresAt: NOW + 120_000,
        failureCount: 1,
      },
    ],
  },
});

const view = (name: string): ConnectionView => ({
  id: `id-${name}`,
  name,
  kind: 'anthropic',
  baseUrl: null,
  effectiveBaseUrl: 'https://api.anthropic.com',
  models: [],
  modelAliases: {},
  priority: 1,
  enabled: true,
  maxConcurrent: null,
  disableCooling: false,
  providerSpecificData: {},
  secretHint: 'sk-ant…abcd',
  createdAt: 0,
  updatedAt: 0,
});

const rowOf = (testId: string): HTMLElement => screen.getByTestId(testId);

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Cooldowns tab', () => {
  it('PROD-6 COOL-2 counts a connection cooldown down live, once a second', async () => {
    vi.useFakeTimers();
    await renderWithFake(<CooldownsTab />, { seed: seed() });
    const row = rowOf('connection-main');
    expect(within(row).getByText('00:30')).toBeTruthy();
    expect(within(row).getByText('rate_limited · 429')).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(3_000);
    });
    expect(within(rowOf('connection-main')).getByText('00:27')).toBeTruthy();
    expect(within(rowOf('lockout-openai@https://api.openai.com:id-main:gpt-5')).getByText('01:57')).toBeTruthy();
    expect(within(rowOf('provider-openai@https://api.openai.com')).getByText('00:42')).toBeTruthy();
  });

  it('COOL-10 "Clear" on a cooling connection calls cooldowns.clear and its cooldown disappears', async () => {
    const view = await renderWithFake(<CooldownsTab />, { seed: seed() });
    fireEvent.click(screen.getByRole('button', { name: 'Clear cooldown of main' }));
    await flush();
    expect(view.inputsOf('cooldowns.clear')).toEqual([{ target: 'connection', connection: 'main' }]);
    expect(screen.queryByTestId('connection-main')).toBeNull();
    expect(rowOf('connection-old')).toBeTruthy();
  });

  it('COOL-10 PROD-4 "Clear all" clears every transient item and leaves the terminal connection in place', async () => {
    const view = await renderWithFake(<CooldownsTab />, { seed: seed() });
    expect(within(rowOf('connection-old')).getByText('Banned')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear all (3)' }));
    await flush();
    expect(view.inputsOf('cooldowns.clear')).toEqual([{ target: 'all' }]);
    expect(screen.queryByTestId('connection-main')).toBeNull();
    expect(screen.getByText('No model is locked out.')).toBeTruthy();
    expect(screen.getByText(/Every provider is healthy/)).toBeTruthy();
    const terminal = rowOf('connection-old');
    expect(within(terminal).getByRole('button', { name: 'Reset connection old' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/1 terminal connection left for a reset/);
    expect(screen.getByRole('button', { name: 'Clear all' }).hasAttribute('disabled')).toBe(true);
  });

  it('COOL-10 "Reset connection" lifts a terminal state through connections.reset, and shows a refusal in place', async () => {
    const known = await renderWithFake(<CooldownsTab />, { seed: { ...seed(), connections: [view('old')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset connection old' }));
    await flush();
    expect(known.inputsOf('connections.reset')).toEqual([{ name: 'old' }]);
    expect(screen.queryByTestId('connection-old')).toBeNull();
    cleanup();

    // The fake answers not_found for a connection it does not know: the refusal shows beside the button.
    await renderWithFake(<CooldownsTab />, { seed: seed() });
    fireEvent.click(screen.getByRole('button', { name: 'Reset connection old' }));
    await flush();
    expect(within(rowOf('connection-old')).getByRole('alert').textContent).toMatch(/No connection named "old"/);
  });

  it('LOCK-7 "Re-enable" removes a model lockout', async () => {
    const view = await renderWithFake(<CooldownsTab />, { seed: seed() });
    const row = rowOf('lockout-openai@https://api.openai.com:id-main:gpt-5');
    expect(within(row).getByText('quota_exhausted')).toBeTruthy();
    expect(within(row).getByText('main')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Re-enable gpt-5 on main' }));
    await flush();
    expect(view.inputsOf('cooldowns.clear')).toEqual([
      { target: 'model', key: 'openai@https://api.openai.com:id-main:gpt-5' },
    ]);
    expect(screen.queryByTestId('lockout-openai@https://api.openai.com:id-main:gpt-5')).toBeNull();
    expect(screen.getByText('No model is locked out.')).toBeTruthy();
  });

  it('PROV-9 BRK-7 shows a provider breaker with its state in words and resets it', async () => {
    const view = await renderWithFake(<CooldownsTab />, { seed: seed() });
    const row = rowOf('provider-openai@https://api.openai.com');
    expect(within(row).getByText('Open')).toBeTruthy();
    expect(within(row).getByText('12')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Reset provider openai@https://api.openai.com' }));
    await flush();
    expect(view.inputsOf('cooldowns.clear')).toEqual([
      { target: 'provider', provider: 'openai@https://api.openai.com' },
    ]);
    expect(screen.queryByTestId('provider-openai@https://api.openai.com')).toBeNull();
  });

  it('PROD-6 follows cooldowns.changed events live and shows the empty states', async () => {
    const view = await renderWithFake(<CooldownsTab />);
    expect(screen.getByText('Nothing is cooling down — every connection is ready.')).toBeTruthy();
    expect(screen.getByText('No model is locked out.')).toBeTruthy();
    const snapshot: CooldownSnapshot = { connections: [cooling], providers: [], models: [], now: NOW };
    act(() => view.fake.emit({ type: 'cooldowns.changed', payload: { snapshot } }));
    expect(within(rowOf('connection-main')).getByText('Cooling down')).toBeTruthy();
    expect(screen.queryByText('Nothing is cooling down — every connection is ready.')).toBeNull();
  });
});
