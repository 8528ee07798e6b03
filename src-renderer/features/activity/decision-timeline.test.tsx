// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../src-shared/domain/decision';
import { renderWithFake } from '../../testing/render-with-fake';
import { activityEntry } from './activity-fixtures';
import { ActivityTab } from './activity-tab';

afterEach(cleanup);

const DECISION: DecisionRecord = {
  served: 'b',
  status: 200,
  heldMs: 0,
  queuedMs: 120,
  omitted: 3,
  entries: [
    {
      kind: 'skipped',
      connection: 'a',
      model: 'claude-sonnet-4-5',
      reason: 'unavailable',
      retryAfterSeconds: 41,
      until: 1_700_000_041_000,
      detail: '429 rate_limit_exceeded, upstream hint',
    },
    {
      kind: 'skipped',
      connection: 'c',
      model: 'claude-sonnet-4-5',
      reason: 'quota',
      retryAfterSeconds: 720,
      until: 1_700_000_720_000,
      detail: 'tokens/5h',
    },
    { kind: 'attempted', connection: 'd', model: 'claude-sonnet-4-5', status: 503, reason: 'server_error', ms: 40 },
    { kind: 'attempted', connection: 'b', model: 'claude-sonnet-4-5', status: 200, reason: 'served', ms: 310 },
  ],
};

describe('Activity detail: the decision timeline (issue 24 §1)', () => {
  it('ISSUE-24: the detail lists every candidate in order, why it was skipped or how its attempt ended, and who served', async () => {
    await renderWithFake(<ActivityTab />, {
      seed: { activity: [activityEntry(7, { connection: 'b' })], decisions: { 7: DECISION } },
    });
    fireEvent.click(screen.getByTestId('request-7'));
    const dialog = screen.getByRole('dialog', { name: 'Request 7' });
    const timeline = await within(dialog).findByRole('list', { name: 'Decision' });
    const items = within(timeline)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      'a / claude-sonnet-4-5: skipped, cooling (429 rate_limit_exceeded, upstream hint), back in 41s',
      'c / claude-sonnet-4-5: skipped, quota held (tokens/5h), back in 12m',
      'd / claude-sonnet-4-5: failed 503 server_error in 40 ms',
      'b / claude-sonnet-4-5: served 200 in 310 ms',
    ]);
    const section = within(dialog).getByRole('region', { name: 'Why this connection' });
    expect(within(section).getByText('… and 3 more candidates (not kept)')).toBeTruthy();
    expect(within(section).getByText(/Served by b\. Queued 120 ms for a slot\./)).toBeTruthy();
  });

  it('ISSUE-24: a request without a record says none was kept', async () => {
    await renderWithFake(<ActivityTab />, { seed: { activity: [activityEntry(8)] } });
    fireEvent.click(screen.getByTestId('request-8'));
    const dialog = screen.getByRole('dialog', { name: 'Request 8' });
    expect(await within(dialog).findByText('No decision record was kept for this request.')).toBeTruthy();
    expect(within(dialog).queryByRole('list', { name: 'Decision' })).toBeNull();
  });
});
