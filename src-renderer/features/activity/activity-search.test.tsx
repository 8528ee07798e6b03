// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flush, renderWithFake } from '../../api/render-with-fake';
import { activityEntry, failoverEntry, refusedEntry } from './activity-fixtures';
import { SEARCH_DEBOUNCE_MS } from './activity-filters';
import { ActivityTab } from './activity-tab';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const HOUR = 3_600_000;

const rowIds = (): string[] =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.getAttribute('data-testid') ?? '');

const seed = () => ({ activity: [activityEntry(1), failoverEntry(2), refusedEntry(3)] });

describe('Activity search, time range and export (issue 13 §3)', () => {
  it('ISSUE-13 PROD-8: Enter runs the search in the core, and typing runs it once the pause is over', async () => {
    const view = await renderWithFake(<ActivityTab />, { seed: seed() });
    const search = screen.getByLabelText('Search');
    fireEvent.change(search, { target: { value: ' 429 ' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    await flush();
    expect(view.inputsOf('activity.list').at(-1)).toEqual({ search: '429', limit: 100 });
    expect(rowIds()).toEqual(['request-2']);

    fireEvent.change(search, { target: { value: 'unauthorized' } });
    await act(() => new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 50)));
    await flush();
    expect(view.inputsOf('activity.list').at(-1)).toEqual({ search: 'unauthorized', limit: 100 });
    expect(rowIds()).toEqual(['request-3']);

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await flush();
    expect((search as HTMLInputElement).value).toBe('');
    expect(rowIds()).toEqual(['request-3', 'request-2', 'request-1']);
  });

  it('ISSUE-13 PROD-8: a live request joins the list only when it matches the search', async () => {
    const view = await renderWithFake(<ActivityTab />, { seed: seed() });
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'backup' } });
    fireEvent.keyDown(screen.getByLabelText('Search'), { key: 'Enter' });
    await flush();
    act(() => void view.fake.recordRequest({ connection: 'main' }));
    act(() => void view.fake.recordRequest({ connection: 'backup' }));
    expect(rowIds()).toEqual(['request-5', 'request-2']);
  });

  it('ISSUE-13 PROD-8: "Last hour" asks for rows since an hour ago; a custom range sends both ends', async () => {
    const view = await renderWithFake(<ActivityTab />, { seed: seed() });
    const before = Date.now();
    fireEvent.change(screen.getByLabelText('Time range'), { target: { value: 'hour' } });
    await flush();
    const hour = view.inputsOf('activity.list').at(-1) as { since: number };
    expect(hour.since).toBeGreaterThanOrEqual(before - HOUR);
    expect(hour.since).toBeLessThanOrEqual(Date.now() - HOUR);
    // The seeded rows are from 2023: none is in the last hour.
    expect(screen.getByText('No matching requests')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Time range'), { target: { value: 'custom' } });
    await flush();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2023-11-14T00:00' } });
    await flush();
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2023-11-16T00:00' } });
    await flush();
    expect(view.inputsOf('activity.list').at(-1)).toEqual({
      since: new Date('2023-11-14T00:00').getTime(),
      until: new Date('2023-11-16T00:00').getTime(),
      limit: 100,
    });
    expect(rowIds()).toEqual(['request-3', 'request-2', 'request-1']);
  });

  it('ISSUE-13: "Export CSV" asks the core for the filter shown and hands the file to a download', async () => {
    const created: Blob[] = [];
    if (typeof URL.createObjectURL !== 'function') URL.createObjectURL = () => '';
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:activity';
    });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const view = await renderWithFake(<ActivityTab />, { seed: seed() });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'error' } });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await flush();
    expect(view.inputsOf('activity.exportCsv')).toEqual([{ status: 'error' }]);
    expect(screen.getByRole('status').textContent).toBe('Exported 1 request to leeway-activity-fake.csv');
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(await created[0]?.text()).toBe('id,status,connection\r\n3,401,');
  });
});
