// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { ActivityTab } from './activity-tab';

afterEach(cleanup);

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

describe('Activity tab', () => {
  it('PROD-16 lists requests newest first with timings, tokens and the failover path', async () => {
    await renderWithFake(<ActivityTab />, { seed: { activity: log() } });
    expect(rowIds()).toEqual(['request-3', 'request-2', 'request-1']);
    const failed = screen.getByTestId('request-2');
    expect(within(failed).getByText('main (429) → backup')).toBeTruthy();
    expect(within(failed).getByText('300 ms')).toBeTruthy();
    expect(within(failed).getByText('1.2k → 340')).toBeTruthy();
    expect(within(screen.getByTestId('request-3')).getByText('503 failed')).toBeTruthy();
  });

  it('PROD-8 "Load older" pages back through the log until nothing older is left', async () => {
    const many = Array.from({ length: 110 }, (_, i) => entry(i + 1));
    const view = await renderWithFake(<ActivityTab />, { seed: { activity: many } });
    expect(rowIds()).toHaveLength(100);
    expect(screen.getByText('100 requests shown')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load older' }));
    await flush();
    expect(view.inputsOf('activity.list').at(-1)).toEqual({ beforeId: 11, limit: 100 });
    expect(rowIds()).toHaveLength(110);
    expect(rowIds().at(-1)).toBe('request-1');
    expect(screen.queryByRole('button', { name: 'Load older' })).toBeNull();
  });

  it('PROD-16 LOWP-4 RESET-6 marks requests served in the low-priority lane or after a limit reset', async () => {
    await renderWithFake(<ActivityTab />, {
      seed: {
        activity: [
          entry(1, { servedVia: 'low-priority-accepted' }),
          entry(2, { servedVia: 'limit-reset' }),
          entry(3, { servedVia: 'slot-busy' }),
          entry(4),
        ],
      },
    });
    expect(within(screen.getByTestId('request-1')).getByText('low priority').title).toMatch(/low-priority lane/);
    expect(within(screen.getByTestId('request-2')).getByText('after reset').title).toMatch(/limit reset/);
    expect(within(screen.getByTestId('request-3')).getByText('low priority')).toBeTruthy();
    const plain = within(screen.getByTestId('request-4'));
    expect(plain.queryByText('low priority')).toBeNull();
    expect(plain.queryByText('after reset')).toBeNull();
  });

  it('CONC-7 shows how long a request was held for a cooldown, and nothing for one never held', async () => {
    await renderWithFake(<ActivityTab />, {
      seed: {
        activity: [entry(1, { heldMs: 2_080 }), entry(2, { heldMs: null }), entry(3, { heldMs: 450, status: 429 })],
      },
    });
    expect(within(screen.getByTestId('request-1')).getByText('held 2.1 s').title).toMatch(/cooldown/);
    expect(within(screen.getByTestId('request-2')).queryByText(/^held/)).toBeNull();
    expect(within(screen.getByTestId('request-3')).getByText('held 450 ms')).toBeTruthy();
  });

  it('ISSUE-12 marks a translated request with its direction, and nothing on a same-format one', async () => {
    await renderWithFake(<ActivityTab />, {
      seed: {
        activity: [
          entry(1, { translated: 'anthropic->openai', connection: 'glm' }),
          entry(2, { translated: null }),
          entry(3, { translated: 'responses->anthropic', apiFormat: 'openai', endpoint: '/v1/responses' }),
        ],
      },
    });
    expect(within(screen.getByTestId('request-1')).getByText('translated').title).toContain('anthropic→openai');
    expect(within(screen.getByTestId('request-2')).queryByText('translated')).toBeNull();
    expect(within(screen.getByTestId('request-3')).getByText('translated').title).toContain('responses→anthropic');
  });

  it('AFF-6 AFF-8 marks what the session pin did: kept, moved or made', async () => {
    await renderWithFake(<ActivityTab />, {
      seed: {
        activity: [
          entry(1, { sessionPin: 'kept' }),
          entry(2, { sessionPin: 'moved' }),
          entry(3, { sessionPin: 'new' }),
          entry(4),
        ],
      },
    });
    expect(within(screen.getByTestId('request-1')).getByText('pinned').title).toMatch(/pin chose/);
    expect(within(screen.getByTestId('request-2')).getByText('pin moved').title).toMatch(/could not serve/);
    expect(within(screen.getByTestId('request-3')).getByText('pin new')).toBeTruthy();
    expect(within(screen.getByTestId('request-4')).queryByText(/pin/)).toBeNull();
  });

  it('PROD-8 an empty log explains how to fill it', async () => {
    await renderWithFake(<ActivityTab />);
    expect(screen.getByText('No requests yet')).toBeTruthy();
  });
});
