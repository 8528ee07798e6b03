// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../../src-shared/contract/errors';
import type { ConnectionCooldownRow } from '../../../src-shared/domain/cooldown';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { fakeConnection } from '../../testing/fake-fixtures';
import { ConnectionsTab } from '../connections/connections-tab';
import { formatHourMinute } from './claude-format';
import { ACTIVE_LANE, claudeStatus, T0, usage } from './claude-fixtures';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const max = fakeConnection('max-1', { kind: 'claude-oauth', providerSpecificData: { lowPriorityMode: true } });

const needsReauth = (name: string): ConnectionCooldownRow => ({
  id: `id-${name}`,
  name,
  provider: 'claude-oauth',
  rateLimitedUntil: null,
  backoffLevel: 0,
  testStatus: 'needs_reauth',
  lastError: 'invalid_grant: refresh token revoked',
  lastErrorType: 'auth',
  errorCode: '400',
  terminal: true,
  retryAfterMs: null,
});

describe('Claude connection card', () => {
  it('PROD-5 LOWP-5 a claude-oauth card shows usage bars, the lane and the last reset, and follows claude.changed', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const view = await renderWithFake(<ConnectionsTab />, {
      now: () => Date.now(),
      seed: {
        connections: [max, fakeConnection('api', { kind: 'anthropic' })],
        claude: [
          claudeStatus('id-max-1', {
            usage: usage(0.72, 5_025_000, 0.4),
            lastReset: { outcome: 'already_used', reason: "this week's reset was already used", at: T0 - 60_000 },
          }),
        ],
      },
    });
    const card = within(screen.getByTestId('claude-status-max-1'));
    expect(card.getByRole('meter', { name: '5-hour usage' }).getAttribute('aria-valuenow')).toBe('72');
    expect(card.getByRole('timer', { name: '5-hour resets in' }).textContent).toBe('1:23:45');
    expect(card.getByText('Low priority: idle')).toBeTruthy();
    expect(
      card.getByText(`Last limit reset (${formatHourMinute(T0 - 60_000)}): this week's reset was already used`),
    ).toBeTruthy();
    expect(screen.queryByTestId('claude-status-api')).toBeNull();

    act(() =>
      view.fake.emit({
        type: 'claude.changed',
        payload: {
          status: [claudeStatus('id-max-1', { usage: usage(1, 5_000_000, 0.41) }, { kind: 'active', ...ACTIVE_LANE })],
        },
      }),
    );
    expect(card.getByRole('meter', { name: '5-hour usage' }).getAttribute('aria-valuenow')).toBe('100');
    expect(card.getByText(`Low priority: active until ${formatHourMinute(ACTIVE_LANE.resetsAtMs)}`)).toBeTruthy();
    expect(card.queryByText(/Last limit reset/)).toBeNull();
  });

  it('LOWP-1 without the opt-in an idle lane is not shown, only the usage', async () => {
    await renderWithFake(<ConnectionsTab />, {
      seed: { connections: [fakeConnection('plain', { kind: 'claude-oauth' })], claude: [] },
    });
    const card = within(screen.getByTestId('claude-status-plain'));
    expect(card.getByText('No usage seen yet')).toBeTruthy();
    expect(card.queryByText(/Low priority:/)).toBeNull();
  });

  it('PROD-6 COOL-10 needs_reauth says "Sign in again (re-import)" and Re-import imports under the same name', async () => {
    const view = await renderWithFake(<ConnectionsTab />, {
      seed: {
        connections: [max],
        cooldowns: { connections: [needsReauth('max-1')], providers: [], models: [] },
      },
      wrap: (inner) => ({
        ...inner,
        call: async (method, input) => (method === 'claude.importCredentials' ? ok(max) : inner.call(method, input)),
      }),
    });
    const row = within(screen.getByTestId('connection-row-max-1'));
    expect(row.getByText('Sign in again (re-import)')).toBeTruthy();
    fireEvent.click(row.getByRole('button', { name: 'Re-import' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Import from Claude Code' }));
    expect((dialog.getByLabelText('Connection name') as HTMLInputElement).value).toBe('max-1');
    fireEvent.click(dialog.getByRole('button', { name: 'Import' }));
    await flush();
    expect(view.inputsOf('claude.importCredentials')).toEqual([{ name: 'max-1' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Import from Claude Code', () => {
  it('PROD-5 calls claude.importCredentials with the name (and a path when given) and shows the core’s refusal', async () => {
    const view = await renderWithFake(<ConnectionsTab />);
    fireEvent.click(screen.getByRole('button', { name: 'Import from Claude Code' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Import from Claude Code' }));
    fireEvent.change(dialog.getByLabelText('Connection name'), { target: { value: 'work' } });
    fireEvent.change(dialog.getByLabelText('Credentials file (optional)'), { target: { value: '/tmp/creds.json' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Import' }));
    await flush();
    expect(view.inputsOf('claude.importCredentials')).toEqual([{ name: 'work', path: '/tmp/creds.json' }]);
    expect(dialog.getByRole('alert').textContent).toMatch(/Could not import Claude Code credentials/);
    expect(screen.getByRole('dialog')).toBeTruthy();

    fireEvent.change(dialog.getByLabelText('Connection name'), { target: { value: '' } });
    expect((dialog.getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('PROD-5 a successful import closes the dialog and the new connection arrives by connections.changed', async () => {
    const imported = fakeConnection('claude', { kind: 'claude-oauth' });
    const view = await renderWithFake(<ConnectionsTab />, {
      wrap: (inner) => ({
        ...inner,
        call: async (method, input) => {
          if (method !== 'claude.importCredentials') return inner.call(method, input);
          // The core stores the imported connection and says so.
          view.fake.state.connections = [imported];
          view.fake.emit({ type: 'connections.changed', payload: { connections: [imported] } });
          return ok(imported);
        },
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Import from Claude Code' }));
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await flush();
    expect(view.inputsOf('claude.importCredentials')).toEqual([{ name: 'claude' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('claude-status-claude')).toBeTruthy();
    // The import re-reads claude.status (INVALIDATES).
    expect(view.inputsOf('claude.status').length).toBeGreaterThanOrEqual(2);
  });
});
