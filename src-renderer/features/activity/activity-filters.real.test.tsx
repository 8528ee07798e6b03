// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { ActivityTab } from './activity-tab';

afterEach(() => {
  cleanup();
  closeCores();
});

const entry = (id: number, extra: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  id,
  ts: 1_700_000_000_000 + id * 1000,
  keyName: 'laptop',
  apiFormat: 'anthropic',
  endpoint: '/v1/messages',
  model: 'claude-sonnet-4-5',
  connection: 'main',
  status: 200,
  stream: true,
  latencyMs: 1200,
  ttfbMs: 300,
  inputTokens: 1200,
  outputTokens: 340,
  cacheReadTokens: null,
  cacheWriteTokens: null,
  failover: [],
  errorCode: null,
  servedVia: null,
  sessionPin: null,
  ...extra,
});

const log = (): RequestLogEntry[] => [
  entry(1),
  entry(2, {
    connection: 'backup',
    failover: [{ connection: 'main', status: 429, reason: 'rate_limited' }],
  }),
  entry(3, { connection: 'backup', status: 503, errorCode: 'all_targets_cooling_down', model: 'gpt-4.1' }),
];

const rowIds = (): string[] =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.getAttribute('data-testid') ?? '');

/** The three requests in the real core's log (ids 1–3), and the tab over it. */
async function renderTab() {
  const core = await startCore();
  for (const { id: _id, ...rest } of log()) core.recordRequest(rest);
  return renderWithCore(<ActivityTab />, core);
}

describe('Activity tab filters, applied by the real handlers', () => {
  it('PROD-8 filters by connection, model and status narrow the list through activity.list', async () => {
    const view = await renderTab();
    fireEvent.change(screen.getByLabelText('Connection'), { target: { value: 'backup' } });
    await flush();
    expect(rowIds()).toEqual(['request-3', 'request-2']);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'error' } });
    await flush();
    expect(rowIds()).toEqual(['request-3']);
    expect(view.inputsOf('activity.list').at(-1)).toEqual({ connection: 'backup', status: 'error', limit: 100 });

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'ok' } });
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'gpt-4.1' } });
    await flush();
    expect(screen.getByText('No matching requests')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await flush();
    expect(rowIds()).toHaveLength(3);
  });

  it('PROD-8 a new activity.request event appears at the top, unless the filter excludes it', async () => {
    const view = await renderTab();
    act(() => void view.core.recordRequest({ connection: 'main', model: 'claude-opus-4-1' }));
    expect(rowIds()[0]).toBe('request-4');
    expect(within(screen.getByTestId('request-4')).getByText('claude-opus-4-1')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Connection'), { target: { value: 'backup' } });
    await flush();
    act(() => void view.core.recordRequest({ connection: 'main' }));
    act(() => void view.core.recordRequest({ connection: 'backup', status: 429 }));
    expect(rowIds()).toEqual(['request-6', 'request-3', 'request-2']);
  });
});
