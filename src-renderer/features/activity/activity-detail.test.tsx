// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithFake } from '../../testing/render-with-fake';
import { activityEntry, failoverEntry, refusedEntry } from './activity-fixtures';
import { ActivityTab } from './activity-tab';

afterEach(cleanup);

const attemptTexts = (dialog: HTMLElement): string[] =>
  within(dialog)
    .getAllByRole('listitem')
    .map((li) => li.textContent.replace(/\s+/g, ' ').trim());

describe('Activity detail view (issue 13 §3)', () => {
  it('ISSUE-13 PROD-16: a row opens every attempt with status, reason, timing, model and the headers that mattered', async () => {
    await renderWithFake(<ActivityTab />, { seed: { activity: [activityEntry(1), failoverEntry(2)] } });
    fireEvent.click(within(screen.getByTestId('request-2')).getByText('everyday'));
    const dialog = screen.getByRole('dialog', { name: 'Request 2' });
    expect(within(dialog).getByText('2 attempts')).toBeTruthy();
    const [first, second] = [within(dialog).getByTestId('attempt-1'), within(dialog).getByTestId('attempt-2')];
    expect(within(first).getByText('primary')).toBeTruthy();
    expect(within(first).getByText('429 rate_limited')).toBeTruthy();
    expect(within(first).getByText('42 ms')).toBeTruthy();
    expect(within(first).getByText('claude-sonnet-4-5')).toBeTruthy();
    const headers = within(first).getByLabelText('Headers of attempt 1');
    expect(within(headers).getByText('retry-after')).toBeTruthy();
    expect(within(headers).getByText('30')).toBeTruthy();
    expect(within(headers).getByText('anthropic-ratelimit-requests-reset')).toBeTruthy();
    expect(within(headers).getByText('2030-01-01T00:00:30Z')).toBeTruthy();
    expect(within(second).getByText('200 served')).toBeTruthy();
    expect(within(second).getByText('310 ms')).toBeTruthy();
    expect(within(second).queryByRole('definition')).toBeNull();
    expect(attemptTexts(dialog)).toHaveLength(2);
  });

  it('ISSUE-13 LOWP-4 CONC-7 AFF-6: the detail shows the model sent upstream and the served-by, translated, held and pin marks', async () => {
    await renderWithFake(<ActivityTab />, { seed: { activity: [failoverEntry(2)] } });
    fireEvent.click(screen.getByRole('button', { name: 'Details of request 2' }));
    const dialog = screen.getByRole('dialog', { name: 'Request 2' });
    expect(within(dialog).getAllByText('claude-sonnet-4-5-20250929').length).toBeGreaterThanOrEqual(2);
    expect(within(dialog).getByText('after reset').title).toMatch(/limit reset/);
    expect(within(dialog).getByText('pin moved')).toBeTruthy();
    expect(within(dialog).getByText('translated')).toBeTruthy();
    expect(within(dialog).getByText('translated anthropic→openai')).toBeTruthy();
    expect(within(dialog).getByText('held 1.5 s')).toBeTruthy();
  });

  it('ISSUE-13: a refused request says no key was stored, gives Leeway’s reason, and that no upstream was tried', async () => {
    await renderWithFake(<ActivityTab />, { seed: { activity: [refusedEntry(5)] } });
    const row = screen.getByTestId('request-5');
    expect(within(row).getByText('401 failed')).toBeTruthy();
    expect(within(row).getByText('unauthorized')).toBeTruthy();
    fireEvent.click(row);
    const dialog = screen.getByRole('dialog', { name: 'Request 5' });
    expect(within(dialog).getByText('none (refused before a key was verified)')).toBeTruthy();
    expect(within(dialog).getByText('Invalid local API key')).toBeTruthy();
    expect(within(dialog).getByText('No upstream was tried: Leeway answered this request itself.')).toBeTruthy();
    expect(within(dialog).queryByRole('list', { name: 'Attempts' })).toBeNull();
  });

  it('ISSUE-13: a row from before attempts were recorded lists its failover hops, then the connection that answered', async () => {
    const old = activityEntry(3, {
      connection: 'backup',
      failover: [{ connection: 'main', status: 503, reason: 'server_error' }],
    });
    await renderWithFake(<ActivityTab />, { seed: { activity: [old] } });
    fireEvent.click(screen.getByTestId('request-3'));
    const dialog = screen.getByRole('dialog', { name: 'Request 3' });
    const [first, second] = [within(dialog).getByTestId('attempt-1'), within(dialog).getByTestId('attempt-2')];
    expect(within(first).getByText('main')).toBeTruthy();
    expect(within(first).getByText('503 server_error')).toBeTruthy();
    expect(within(second).getByText('backup')).toBeTruthy();
    expect(within(second).getByText('200 served')).toBeTruthy();
    expect(attemptTexts(dialog)).toHaveLength(2);
  });

  it('ISSUE-13: the dialog closes with its button and with Escape, and the list stays as it was', async () => {
    await renderWithFake(<ActivityTab />, { seed: { activity: [failoverEntry(2)] } });
    fireEvent.click(screen.getByTestId('request-2'));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByTestId('request-2'));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('1 request shown')).toBeTruthy();
  });
});
