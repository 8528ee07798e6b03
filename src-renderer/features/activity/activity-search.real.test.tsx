// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { activityEntry, failoverEntry, refusedEntry } from './activity-fixtures';
import { SEARCH_DEBOUNCE_MS } from './activity-filters';
import { ActivityTab } from './activity-tab';

afterEach(() => {
  cleanup();
  closeCores();
  vi.restoreAllMocks();
});

const HOUR = 3_600_000;

const rowIds = (): string[] =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.getAttribute('data-testid') ?? '');

/** The three fixture requests in the real core's log (ids 1–3), and the tab over it. */
async function renderTab() {
  const core = await startCore();
  const record = ({ id: _id, ...entry }: RequestLogEntry) => core.recordRequest(entry);
  [activityEntry(1), failoverEntry(2), refusedEntry(3)].forEach(record);
  return renderWithCore(<ActivityTab />, core);
}

describe('Activity search, time range and export (issue 13 §3), filtered by the real handlers', () => {
  it('ISSUE-13 PROD-8: Enter runs the search in the core, and typing runs it once the pause is over', async () => {
    const view = await renderTab();
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
    const view = await renderTab();
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'backup' } });
    fireEvent.keyDown(screen.getByLabelText('Search'), { key: 'Enter' });
    await flush();
    act(() => void view.core.recordRequest({ connection: 'main' }));
    act(() => void view.core.recordRequest({ connection: 'backup' }));
    expect(rowIds()).toEqual(['request-5', 'request-2']);
  });

  it('ISSUE-13 PROD-8: "Last hour" asks for rows since an hour ago; a custom range sends both ends', async () => {
    const view = await renderTab();
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
    const view = await renderTab();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'error' } });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await flush();
    expect(view.inputsOf('activity.exportCsv')).toEqual([{ status: 'error' }]);
    expect(screen.getByRole('status').textContent).toMatch(/^Exported 1 request to leeway-activity-[\w-]+\.csv$/);
    expect(clicked).toHaveBeenCalledTimes(1);
    // The core's CSV: a header line and the one failed request.
    const lines = (await created[0]?.text())?.trimEnd().split('\r\n') ?? [];
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('401');
  });
});
